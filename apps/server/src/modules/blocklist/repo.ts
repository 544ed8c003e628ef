/** Blacklist rules over Kysely (table blocklist_rules, migration 901): the only SQL of the blocklist slice. */

import type { Generated, Selectable } from 'kysely';
import { deleteWhere, insertRow, rowsWhere, rowWhere, snakeKeys } from '../../infra/db/rows.ts';
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
    return (await rowsWhere(this.db, 'blocklist_rules', {}, [['id', 'desc']])).map(toRule);
  }
  async find(id: number) {
    const r = await rowWhere(this.db, 'blocklist_rules', { id });
    return r && toRule(r);
  }
  async findValue(kind: RuleKind, value: string) {
    const r = await rowWhere(this.db, 'blocklist_rules', { kind, value });
    return r && toRule(r);
  }
  async create(r: Omit<BlockRule, 'id'>) {
    return toRule(await insertRow(this.db, 'blocklist_rules', snakeKeys(r)));
  }
  async delete(id: number) {
    return (await deleteWhere(this.db, 'blocklist_rules', { id })) > 0;
  }
}
