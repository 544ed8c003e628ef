/**
 * Table types for Kysely. Times are epoch milliseconds (INTEGER in SQLite, BIGINT in PostgreSQL read back as
 * numbers), booleans are 0/1 integers so both databases agree. Each module adds its tables here.
 */
import type { ColumnType, Generated } from 'kysely';

/** The two databases the server runs on. */
export type DatabaseKind = 'sqlite' | 'postgres';

type Id = Generated<number>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  email: string;
  username: string;
  password_hash: string;
  /** 1 individual, 2 company (spec §6). */
  type: number;
  /** Comma-separated role names besides the implicit ones (`admin`, `staff`, ...). */
  roles: Defaulted<string>;
  /** V coins. */
  surplus: Defaulted<number>;
  /** CV coins (company accounts). */
  cv_coin: Defaulted<number>;
  /** free | monthly | yearly */
  level: Defaulted<string>;
  vexpired_at: number | null;
  phone: string | null;
  contact: string | null;
  company: string | null;
  address: string | null;
  ip: string | null;
  enabled: Defaulted<number>;
  test_flag: Defaulted<number>;
  black_flag: Defaulted<number>;
  extension_staff: Defaulted<number>;
  beta: Defaulted<number>;
  invite_code: string;
  referred_by: number | null;
  referral_count: Defaulted<number>;
  upload_count: Defaulted<number>;
  purchased: Defaulted<number>;
  teaching_confirmed: Defaulted<number>;
  email_notice: Defaulted<number>;
  notices_hidden_at: number | null;
  last_login_at: number | null;
  last_login_ip: string | null;
  previous_login_at: number | null;
  previous_login_ip: string | null;
  password_changed_at: number;
  created_at: number;
  updated_at: number;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

export interface VerificationCodesTable {
  id: Id;
  email: string;
  /** 1 register, 2 reset password, 3 bind / change email. */
  type: number;
  /** 1 individual, 2 company. */
  account_type: number;
  code_hash: string;
  attempts: Defaulted<number>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  ip: string | null;
}

export interface CoinLedgerTable {
  id: Id;
  user_id: number;
  /** V or CV */
  currency: string;
  amount: number;
  balance_after: number;
  reason: string;
  /** Idempotency key: one change per reference, ever. */
  ref: string;
  note: string | null;
  created_at: number;
}

export interface CoinGrantsTable {
  kind: string;
  period: string;
  user_id: number;
  created_at: number;
}

export interface ScheduledRunsTable {
  name: string;
  period: string;
  started_at: number;
  finished_at: number | null;
  result: string | null;
}

export interface CategoriesTable {
  id: Id;
  parent_id: number | null;
  /** category | tag */
  kind: string;
  name: string;
  sort: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface NoticesTable {
  id: Id;
  page: Defaulted<number>;
  jump_to: Defaulted<string>;
  button: Defaulted<string>;
  url: Defaulted<string>;
  type: Defaulted<number>;
  title: Defaulted<string>;
  content: Defaulted<string>;
  enabled: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface SysConfigTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface MachinesTable {
  id: Id;
  name: string;
  host: Defaulted<string>;
  kind: Defaulted<string>;
  status: Defaulted<string>;
  capacity: Defaulted<number>;
  running: Defaulted<number>;
  version: Defaulted<string>;
  enabled: Defaulted<number>;
  remark: Defaulted<string>;
  meta: Defaulted<string>;
  last_heartbeat_at: number | null;
  started_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UserIdentitiesTable {
  id: Id;
  provider: string;
  external_id: string;
  user_id: number;
  created_at: number;
}

export interface SecretsTable {
  key: string;
  value: string;
  created_at: number;
}

export interface DB {
  users: UsersTable;
  tokens: TokensTable;
  verification_codes: VerificationCodesTable;
  coin_ledger: CoinLedgerTable;
  coin_grants: CoinGrantsTable;
  scheduled_runs: ScheduledRunsTable;
  categories: CategoriesTable;
  notices: NoticesTable;
  sys_config: SysConfigTable;
  machines: MachinesTable;
  secrets: SecretsTable;
  user_identities: UserIdentitiesTable;
}
