/** Config validation at boot: defaults, derived adapter choices, and every problem reported at once. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('config', () => {
  it('defaults to SQLite, local disk, the outbox and the in-process queue under DATA_DIR', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/mocap-x' });
    expect(c.PORT).toBe(8080);
    expect(c.database).toEqual({ kind: 'sqlite', file: '/tmp/mocap-x/mocap.db' });
    expect(c.storage).toEqual({ kind: 'local', root: '/tmp/mocap-x/files' });
    expect(c.mail).toMatchObject({ kind: 'outbox', dir: '/tmp/mocap-x/outbox' });
    expect(c.queue).toEqual({ kind: 'memory' });
    expect(c.dataDir).toBe('/tmp/mocap-x');
  });

  it('chooses PostgreSQL, Redis, S3 and SMTP from their variables', () => {
    const c = loadConfig({
      DATA_DIR: 'rel/data',
      PORT: '9000',
      DATABASE_URL: 'postgres://u@db:5432/app',
      REDIS_URL: 'redis://cache:6379',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_ENDPOINT: 'http://minio:9000',
      SMTP_HOST: 'smtp.example.com',
      SMTP_USER: 'u',
      SMTP_PASS: 'p',
      SMTP_SECURE: 'true',
    });
    expect(c.PORT).toBe(9000);
    expect(c.dataDir).toBe(resolve('rel/data'));
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app', schema: undefined });
    expect(c.queue).toEqual({ kind: 'redis', url: 'redis://cache:6379' });
    expect(c.storage).toMatchObject({
      kind: 's3',
      bucket: 'b',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(c.mail).toMatchObject({ kind: 'smtp', host: 'smtp.example.com', secure: true, user: 'u' });
  });

  it('takes sqlite: URLs relative to DATA_DIR and :memory:', () => {
    expect(loadConfig({ DATA_DIR: '/d', DATABASE_URL: 'sqlite:other.db' }).database).toEqual({
      kind: 'sqlite',
      file: '/d/other.db',
    });
    expect(loadConfig({ DATA_DIR: '/d', DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
      kind: 'sqlite',
      file: ':memory:',
    });
  });

  it('treats empty variables as unset', () => {
    const c = loadConfig({ DATA_DIR: '/d', DATABASE_URL: '', REDIS_URL: '', S3_BUCKET: '', PUBLIC_URL: '' });
    expect(c.database.kind).toBe('sqlite');
    expect(c.queue.kind).toBe('memory');
    expect(c.storage.kind).toBe('local');
    expect(c.PUBLIC_URL).toBeUndefined();
  });

  it('lists every problem at once', () => {
    let err: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'http://x',
        S3_BUCKET: 'only-bucket',
        URL_SIGNING_SECRET: 'short',
        ADMIN_EMAIL: 'not-an-email',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'REDIS_URL',
      'URL_SIGNING_SECRET',
      'ADMIN_EMAIL',
      'LOG_LEVEL',
    ])
      expect(issues).toContain(name);
    // The cross-field S3 rule runs once the fields parse: checked on its own.
    expect(() => loadConfig({ S3_BUCKET: 'only-bucket' })).toThrow(/S3_ACCESS_KEY_ID/);
  });
});
