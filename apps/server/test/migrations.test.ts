/**
 * Migrations: folder order, re-running is a no-op, and processes booting at the same time on one database
 * (SQLite file, PostgreSQL schema) migrate once without failing.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createDatabase, listMigrations, migrateToLatest } from '../src/infra/db/index.ts';
import { createInfra } from '../src/wiring.ts';
import { databases, PG_URL, testHasher } from './harness.ts';
import { dropSchema } from './services.ts';

const INFRA = join(import.meta.dirname, '..', 'src', 'wiring.ts');
const CONFIG = join(import.meta.dirname, '..', 'src', 'config.ts');

/** Boots createInfra in a child process on DATA_DIR; resolves with its secrets. */
function bootProcess(dataDir: string): Promise<string> {
  const code = `
    const { createInfra } = await import(${JSON.stringify(pathToFileURL(INFRA).href)});
    const { loadConfig } = await import(${JSON.stringify(pathToFileURL(CONFIG).href)});
    const infra = await createInfra(loadConfig({ DATA_DIR: process.env.D, LOG_LEVEL: 'silent' }));
    process.stdout.write(JSON.stringify(infra.secrets.urlSigning + ' ' + infra.transport.publicKeyPem));
    await infra.close();`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      { env: { ...process.env, D: dataDir }, timeout: 120_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe('migrations', () => {
  it('are numbered files in number order, platform (0xx) before videos and jobs (1xx), 4-digit ranges last', () => {
    const names = listMigrations();
    expect(names.slice(0, 3)).toEqual(['001_accounts.ts', '002_coins.ts', '003_platform.ts']);
    const nums = names.map((n) => Number.parseInt(n, 10));
    expect([...nums].sort((a, b) => a - b)).toEqual(nums);
    expect(names.every((n) => /^\d{3,4}_[\w-]+\.ts$/.test(n))).toBe(true);
    expect(names.indexOf('1100_company.ts')).toBeGreaterThan(names.indexOf('901_blocklist_rules.ts'));
  });

  describe.each(databases)('on %s', (kind) => {
    it('run once when several processes boot together, and again is a no-op', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mocap-mig-'));
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ...(kind === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : {}),
      });
      try {
        let keys: string[];
        if (kind === 'postgres') {
          const infras = await Promise.all([0, 1, 2].map(() => createInfra(config, { hasher: testHasher })));
          keys = infras.map((i) => `${i.secrets.urlSigning} ${i.transport.publicKeyPem}`);
          for (const i of infras) await i.close();
        } else {
          // better-sqlite3 waits for locks synchronously, so concurrent boots must be separate processes.
          keys = await Promise.all([0, 1, 2].map(() => bootProcess(dataDir)));
        }
        // Every process agrees on the generated secrets (first writer wins).
        expect(new Set(keys).size).toBe(1);
        const db = await createDatabase(config.database);
        try {
          expect(await migrateToLatest(db.db, db.kind, { schema: db.schema })).toEqual([]);
          const users = await db.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          expect(Number(users.n)).toBe(0);
        } finally {
          await db.destroy();
        }
      } finally {
        if (kind === 'postgres') await dropSchema(schema);
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
