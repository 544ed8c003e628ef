/**
 * A mailer whose transport administrators can switch at run time (issue 25, /tencent-email/exchange): the
 * deployment's configured mailer (outbox or SMTP_URL) until a verified mailbox is set, then that mailbox over SMTP.
 */
import nodemailer from 'nodemailer';
import type { SmtpAccount, SmtpPort } from '../../modules/mailbox/ports.ts';
import type { Mailer } from '../../ports.ts';

const transportOf = (a: SmtpAccount) =>
  nodemailer.createTransport({
    host: a.host,
    port: a.port,
    secure: a.secure,
    auth: { user: a.user, pass: a.pass },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
  });

export function createSwitchableMailer(
  base: Mailer,
  /** The stored mailbox, read once before the first mail (null: none). */
  load: () => Promise<SmtpAccount | null>,
): Mailer & SmtpPort {
  let current: { account: SmtpAccount; transport: ReturnType<typeof transportOf> } | null = null;
  let loaded: Promise<void> | null = null;
  const set = (a: SmtpAccount | null) => {
    current?.transport.close();
    current = a ? { account: a, transport: transportOf(a) } : null;
  };
  return {
    async send(msg) {
      loaded ??= load().then(
        (a) => {
          if (a && !current) set(a);
        },
        () => undefined,
      );
      await loaded;
      if (!current) return base.send(msg);
      await current.transport.sendMail({
        from: current.account.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
      });
    },
    async verify(a) {
      const t = transportOf(a);
      try {
        await t.verify();
      } finally {
        t.close();
      }
    },
    use(a) {
      loaded = Promise.resolve();
      set(a);
    },
  };
}
