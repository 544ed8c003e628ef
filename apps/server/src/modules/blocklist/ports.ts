export type RuleKind = 'domain' | 'ip';

export interface BlockRule {
  id: number;
  kind: RuleKind;
  value: string;
  note: string;
  createdBy: number | null;
  createdAt: number;
}

export interface BlocklistRepo {
  list(): Promise<BlockRule[]>;
  find(id: number): Promise<BlockRule | undefined>;
  findValue(kind: RuleKind, value: string): Promise<BlockRule | undefined>;
  create(r: Omit<BlockRule, 'id'>): Promise<BlockRule>;
  delete(id: number): Promise<boolean>;
}
