/** The base of a slice's repository: the database typed with the slice's own tables. */
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A repository over the tables of its slice (`T`: the slice's table interfaces, declared beside it), on the app's
 * one database.
 */
export abstract class SliceRepo<T> {
  protected readonly db: Kysely<T>;
  constructor(db: Kysely<DB>) {
    this.db = db as unknown as Kysely<T>;
  }
}
