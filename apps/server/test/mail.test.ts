/**
 * Mail adapters: the outbox folder (embedded default) and SMTP through nodemailer against a small in-test SMTP
 * server on loopback (plain SMTP with AUTH PLAIN, enough of RFC 5321 for one message).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, createOutboxMailer, readOutbox } from '../src/infra/mail/index.ts';

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

interface Received {
  auth?: string;
  from?: string;
  to: string[];
  data: string;
}

/** A minimal SMTP server: EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT. */
function smtpServer(received: Received[]): Server {
  return createServer((sock: Socket) => {
    let buf = '';
    let inData = false;
    let cur: Received = { to: [], data: '' };
    const say = (s: string) => sock.write(`${s}\r\n`);
    say('220 test ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(cur);
            cur = { to: [], data: '' };
            say('250 queued');
          } else cur.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') {
          sock.write('250-test\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n');
        } else if (cmd === 'HELO') say('250 test');
        else if (cmd === 'AUTH') {
          cur.auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8');
          say('235 ok');
        } else if (cmd === 'MAIL') {
          cur.from = line.slice(10).trim();
          say('250 ok');
        } else if (cmd === 'RCPT') {
          cur.to.push(line.slice(8).trim());
          say('250 ok');
        } else if (cmd === 'DATA') {
          inData = true;
          say('354 go ahead');
        } else if (cmd === 'QUIT') {
          say('221 bye');
          sock.end();
        } else if (cmd === 'RSET' || cmd === 'NOOP') say('250 ok');
        else say('502 not implemented');
      }
    });
  });
}

describe('SMTP mailer', () => {
  const received: Received[] = [];
  const server = smtpServer(received);
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
