export * from './tracks.ts';
