/**
 * Issue 25, spec §7 POST /tencent-email/exchange: an administrator exchanges a Tencent mailbox and its
 * authorisation code for the product's sending mailbox. The server logs in to the mailbox's SMTP server (here a
 * small SMTP server on loopback that accepts one user and code), stores it only when the login succeeds (the code
 * encrypted), sends the verification mails through it from then on, and back through the configured mailer
 * (the outbox) once it is removed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Codes } from '../src/errors.ts';
import { tencentSmtpHost } from '../src/modules/mailbox/service.ts';
import { createServices } from '../src/wiring.ts';
import { databases, useServer } from './harness.ts';
import { type Received, smtpStub } from './smtp-stub.ts';

const MAILBOX = 'notice@studio-example.com';
const CODE = 'abcdefghijklmnop';

const received: Received[] = [];
const smtp = smtpStub(received, {
  host: 'smtp.test',
  // One account: the mailbox with its authorisation code.
  login: (plain) => {
    const [, user, pass] = plain.split('\u0000');
    return user === MAILBOX && pass === CODE ? user : null;
  },
  loginOk: '235 Authentication successful',
  loginRefused: '535 Login fail. Please enter your authorization code to login',
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
const port = (smtp.address() as { port: number }).port;
afterAll(() => new Promise<void>((r) => smtp.close(() => r())));

describe('tencentSmtpHost', () => {
  it('QQ Mail addresses use smtp.qq.com, company domains Tencent Exmail', () => {
    expect(tencentSmtpHost('me@qq.com')).toBe('smtp.qq.com');
    expect(tencentSmtpHost('me@Foxmail.com')).toBe('smtp.qq.com');
    expect(tencentSmtpHost('notice@studio-example.com')).toBe('smtp.exmail.qq.com');
  });
});

describe.each(databases)('POST /tencent-email/exchange on %s', (kind) => {
  const t = useServer(kind);
  const exchange = (token: string, authCode: string) =>
    t.call<{ email: string; host: string; port: number; secure: boolean; name: string }>(
      'POST',
      '/product/tencent-email/exchange',
      {
        token,
        body: { email: MAILBOX, authCode, name: 'MoCap Studio', host: '127.0.0.1', port, secure: false },
      },
    );

  it('verifies the mailbox by logging in, then sends the mail through it; removing it returns to the outbox', async () => {
    received.length = 0;
    const admin = await t.adminToken();
    const user = await t.register(`mb-user-${kind}@example.com`);
    // A wrong code: the server's refusal, nothing stored, mail still to the outbox.
    const wrong = await exchange(admin, 'not-the-code');
    expect(wrong.code).toBe(Codes.REFUSED);
    expect(wrong.message).toContain('535');
    expect((await t.call('GET', '/product/tencent-email/sender', { token: admin })).data).toBeNull();
    const first = `mb-1-${kind}@example.com`;
    expect((await t.call('POST', `/product/code/${first}/1`)).code).toBe(0);
    expect(await t.lastCode(first)).toMatch(/^\d{4}$/);
    expect(received).toHaveLength(0);

    // The right code: stored (encrypted), and mail goes through the mailbox.
    const r = await exchange(admin, CODE);
    expect(r.code, r.message).toBe(0);
    expect(r.data).toMatchObject({
      email: MAILBOX,
      name: 'MoCap Studio',
      host: '127.0.0.1',
      port,
      secure: false,
    });
    expect(JSON.stringify(r.data)).not.toContain(CODE);
    const stored = await t.infra.store.repos.sysConfig.get('mail_sender');
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(CODE);
    const second = `mb-2-${kind}@example.com`;
    expect((await t.call('POST', `/product/code/${second}/1`)).code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ auth: MAILBOX, from: `<${MAILBOX}>`, to: [`<${second}>`] });
    expect(received[0]!.data).toMatch(/^From: MoCap Studio <notice@studio-example\.com>/m);
    await expect(t.lastCode(second)).rejects.toThrow();

    // A new process over the same database sends through the stored mailbox too.
    const again = createServices(t.infra);
    expect(await again.mailbox.current()).toMatchObject({ email: MAILBOX });
    expect(await again.mailbox.account()).toMatchObject({ user: MAILBOX, pass: CODE });

    // Administrators only.
    expect((await exchange(user.token, CODE)).code).toBe(Codes.INSUFFICIENT_PERMISSION);
    expect((await t.call('DELETE', '/product/tencent-email/sender', { token: user.token })).code).toBe(
      Codes.INSUFFICIENT_PERMISSION,
    );

    // Removed: back to the outbox.
    const del = await t.call<{ removed: boolean }>('DELETE', '/product/tencent-email/sender', {
      token: admin,
    });
    expect(del.data.removed).toBe(true);
    const n = received.length;
    const third = `mb-3-${kind}@example.com`;
    expect((await t.call('POST', `/product/code/${third}/1`)).code).toBe(0);
    expect(await t.lastCode(third)).toMatch(/^\d{4}$/);
    expect(received).toHaveLength(n);
  });
});
