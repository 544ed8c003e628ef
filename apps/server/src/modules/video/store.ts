/**
 * The store the video, motion and job services use: S1's repositories plus the video repository, bound to one
 * connection or one transaction (so a coin charge and a video row commit together).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/index.ts';
import type { DB } from '../../infra/db/schema.ts';
import { createRepos, storeOver } from '../../store.ts';
import type { VideoRepos, VideoStore } from './ports.ts';
import { KyselyVideoRepo } from './repo.ts';

export type { VideoRepos, VideoStore };

function reposOf(db: Kysely<DB>, kind: 'sqlite' | 'postgres'): VideoRepos {
  return { ...createRepos(db, kind), videos: new KyselyVideoRepo(db, kind) };
}

export function createVideoStore(database: Pick<Database, 'db' | 'kind'>): VideoStore {
  return storeOver(database, reposOf);
}
