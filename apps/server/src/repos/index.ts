/**
 * Repositories (the only place with SQL) and the Store that binds them to a connection or a transaction.
 * S2: add your repositories to `createRepos` (and their interfaces to `Repos` in services/ports.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/index.ts';
import type { DB } from '../infra/db/schema.ts';
import type { Repos, Store } from '../services/ports.ts';
import { KyselyGrantRepo, KyselyLedgerRepo, KyselyScheduledRunRepo } from './coins.ts';
import {
  KyselyCategoryRepo,
  KyselyMachineRepo,
  KyselyNoticeRepo,
  KyselySecretRepo,
  KyselySysConfigRepo,
} from './platform.ts';
import { KyselyCodeRepo, KyselyIdentityRepo, KyselyTokenRepo, KyselyUserRepo } from './users.ts';

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

export function createStore(database: Database): Store {
  const { db, kind } = database;
  return {
    kind,
    repos: createRepos(db, kind),
    transaction: (fn) => db.transaction().execute((trx) => fn(createRepos(trx, kind))),
  };
}
