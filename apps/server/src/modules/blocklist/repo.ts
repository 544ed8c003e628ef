/** Blacklist rules over Kysely (table blocklist_rules, migration 901): the only SQL of the blocklist slice. */

import type { Generated, Selectable } from 'kysely';
import { rowWhere } from '../../infra/db/rows.ts';
import type { DB } from '../../infra/db/schema.ts';
import { SliceRepo } from '../../infra/db/slice.ts';
import type { BlocklistRepo, BlockRule, RuleKind } from './ports.ts';

interface BlocklistRulesTable {
  id: Generated<number>;
  kind: string;
  value: string;
  note: string;
  created_by: number | null;
  created_at: number;
}
type BDB = DB & { blocklist_rules: BlocklistRulesTable };

const toRule = (r: Selectable<BlocklistRulesTable>): BlockRule => ({
  id: Number(r.id),
  kind: r.kind as RuleKind,
  value: r.value,
  note: r.note,
  createdBy: r.created_by === null ? null : Number(r.created_by),
  createdAt: Number(r.created_at),
});

export class KyselyBlocklistRepo extends SliceRepo<BDB> implements BlocklistRepo {
  async list() {
    return (await this.db.selectFrom('blocklist_rules').selectAll().orderBy('id', 'desc').execute()).map(
      toRule,
    );
  }
  async find(id: number) {
    const r = await this.db.selectFrom('blocklist_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toRule(r);
  }
  async findValue(kind: RuleKind, value: string) {
    const r = await rowWhere(this.db, 'blocklist_rules', { kind, value });
    return r && toRule(r);
  }
  async create(r: Omit<BlockRule, 'id'>) {
    const row = await this.db
      .insertInto('blocklist_rules')
      .values({
        kind: r.kind,
        value: r.value,
        note: r.note,
        created_by: r.createdBy,
        created_at: r.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRule(row);
  }
  async delete(id: number) {
    const r = await this.db.deleteFrom('blocklist_rules').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
