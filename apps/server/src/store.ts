/**
 * The Store: the shared repositories of the feature slices (`modules/<slice>/repo.ts`, the only SQL) bound to a
 * connection or a transaction. A slice with its own tables extends it (`modules/video/store.ts`,
 * `modules/music/repo.ts`, `modules/order/repo.ts`); the repositories' interfaces are in `ports.ts`.
 */
import type { Kysely } from 'kysely';
import type { Database } from './infra/db/index.ts';
import type { DB } from './infra/db/schema.ts';
import { KyselyCategoryRepo } from './modules/catalog/repo.ts';
import { KyselyGrantRepo, KyselyLedgerRepo, KyselyScheduledRunRepo } from './modules/coins/repo.ts';
import {
  KyselyMachineRepo,
  KyselyNoticeRepo,
  KyselySecretRepo,
  KyselySysConfigRepo,
} from './modules/system/repo.ts';
import { KyselyCodeRepo, KyselyIdentityRepo, KyselyTokenRepo, KyselyUserRepo } from './modules/user/repo.ts';
import type { Repos, Store } from './ports.ts';

export function createRepos(db: Kysely<DB>, kind: 'sqlite' | 'postgres'): Repos {
  return {
    users: new KyselyUserRepo(db, kind),
    tokens: new KyselyTokenRepo(db),
    codes: new KyselyCodeRepo(db),
    ledger: new KyselyLedgerRepo(db),
    grants: new KyselyGrantRepo(db),
    runs: new KyselyScheduledRunRepo(db),
    identities: new KyselyIdentityRepo(db),
    categories: new KyselyCategoryRepo(db),
    notices: new KyselyNoticeRepo(db),
    sysConfig: new KyselySysConfigRepo(db),
    machines: new KyselyMachineRepo(db),
    secrets: new KyselySecretRepo(db),
  };
}

/**
 * A store of the repositories `reposOf` builds: bound to the database's connection, and to one transaction for
 * `transaction(fn)` (a charge and the rows it pays for commit together).
 */
export function storeOver<R>(
  database: Pick<Database, 'db' | 'kind'>,
  reposOf: (db: Kysely<DB>, kind: 'sqlite' | 'postgres') => R,
): { kind: 'sqlite' | 'postgres'; repos: R; transaction<T>(fn: (repos: R) => Promise<T>): Promise<T> } {
  const { db, kind } = database;
  return {
    kind,
    repos: reposOf(db, kind),
    transaction: (fn) => db.transaction().execute((trx) => fn(reposOf(trx, kind))),
  };
}

export function createStore(database: Database): Store {
  return storeOver(database, createRepos);
}
