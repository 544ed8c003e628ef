import type { Command } from './types.ts';

export const track: Command = {
  summary: 'video → per-frame body (and hand/face) landmarks, tracks.json',
  usage:
    'mocap track <video> -o tracks.json [--model lite|full|heavy] [--hands] [--face] [--backend ort|tfjs] [--overlay out.mp4]',
  async run() {
    throw new Error('not implemented yet');
  },
};
