/**
 * Mail adapters: an outbox folder (one .eml-like JSON file per message, the embedded default — tests and
 * operators read codes there) or SMTP through nodemailer.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Mailer, MailMessage } from '../../ports.ts';

export interface OutboxMail extends MailMessage {
  from: string;
  sentAt: number;
}

/**
 * `onSaved(path, mail)` is told of each mail written (the server prints it on the console in the embedded mode:
 * without SMTP the outbox is where a user's code is, issue 15.2).
 */
export function createOutboxMailer(
  dir: string,
  from: string,
  onSaved?: (path: string, mail: OutboxMail) => void,
): Mailer {
  return {
    async send(msg) {
      await mkdir(dir, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.json`;
      const mail: OutboxMail = { ...msg, from, sentAt: Date.now() };
      // Write then rename would be atomic; a single small write is enough for readers that poll by name.
      await writeFile(join(dir, name), JSON.stringify(mail, null, 2), { mode: 0o600 });
      onSaved?.(join(dir, name), mail);
    },
  };
}

/** The console line of an outbox mail: where it is, to whom, and its verification code when it carries one. */
export function outboxNotice(path: string, mail: OutboxMail): string {
  const code = /\b(\d{4})\b/.exec(mail.subject)?.[1];
  return `mail to ${mail.to}${code ? ` (code ${code})` : ''}: "${mail.subject}" saved as ${path} (no SMTP configured: set SMTP_URL to send mails)`;
}

/** Reads the outbox (newest last); used by tests and the dev tooling to find verification codes. */
export async function readOutbox(dir: string, to?: string): Promise<OutboxMail[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const mails = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as OutboxMail),
  );
  return to ? mails.filter((m) => m.to.toLowerCase() === to.toLowerCase()) : mails;
}

export function createSmtpMailer(cfg: Extract<Config['mail'], { kind: 'smtp' }>): Mailer {
  const transport = nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.secure,
    ...(cfg.user ? { auth: { user: cfg.user, pass: cfg.pass } } : {}),
  });
  return {
    async send(msg) {
      await transport.sendMail({
        from: cfg.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
      });
    },
  };
}

export function createMailer(
  cfg: Config['mail'],
  onOutboxSaved?: (path: string, mail: OutboxMail) => void,
): Mailer {
  return cfg.kind === 'smtp' ? createSmtpMailer(cfg) : createOutboxMailer(cfg.dir, cfg.from, onOutboxSaved);
}
