/**
 * Mail adapters: the outbox folder (embedded default) and SMTP through nodemailer against a small in-test SMTP
 * server on loopback (plain SMTP with AUTH PLAIN, enough of RFC 5321 for one message).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, createOutboxMailer, readOutbox } from '../src/infra/mail/index.ts';
import { type Received, smtpStub } from './smtp-stub.ts';

describe('outbox mailer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mocap-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one file per message and reads them back by recipient, oldest first', async () => {
    const m = createOutboxMailer(join(dir, 'outbox'), 'mocap <no-reply@test>');
    expect(await readOutbox(join(dir, 'outbox'))).toEqual([]);
    await m.send({ to: 'a@example.com', subject: 'one', text: 'first' });
    await m.send({ to: 'b@example.com', subject: 'two', text: 'second' });
    await m.send({ to: 'A@example.com', subject: 'three', text: 'third' });
    const forA = await readOutbox(join(dir, 'outbox'), 'a@example.com');
    expect(forA.map((x) => x.subject)).toEqual(['one', 'three']);
    expect(forA[0]).toMatchObject({ from: 'mocap <no-reply@test>', text: 'first' });
    expect(await readOutbox(join(dir, 'outbox'))).toHaveLength(3);
  });
});

describe('SMTP mailer', () => {
  const received: Received[] = [];
  const server = smtpStub(received);
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('delivers through SMTP with authentication, UTF-8 subject and body', async () => {
    const m = createMailer({
      kind: 'smtp',
      host: '127.0.0.1',
      port,
      secure: false,
      user: 'mailer',
      pass: 's3cret',
      from: 'mocap <no-reply@mocap.test>',
    });
    await m.send({ to: 'user@example.com', subject: 'code 1234 验证码', text: '您的验证码是 1234' });
    expect(received).toHaveLength(1);
    const r = received[0];
    expect(r.auth).toBe('\u0000mailer\u0000s3cret');
    expect(r.from).toContain('no-reply@mocap.test');
    expect(r.to).toEqual(['<user@example.com>']);
    expect(r.data).toMatch(/^Subject: /m);
    expect(r.data).toMatch(/^To: user@example\.com/m);
    // Body and subject are encoded (quoted-printable / encoded-word); decoding them gives the text back.
    const decoded = decodeMime(r.data);
    expect(decoded).toContain('您的验证码是 1234');
  });

  it('reports a refused connection as an error', async () => {
    const m = createMailer({ kind: 'smtp', host: '127.0.0.1', port: 1, secure: false, from: 'x <x@x>' });
    await expect(m.send({ to: 'a@b.c', subject: 's', text: 't' })).rejects.toThrow();
  });
});

/** Decodes the quoted-printable or base64 body of a simple text/plain message. */
function decodeMime(raw: string): string {
  const [head, ...rest] = raw.split('\n\n');
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
