/**
 * The product's sending mailbox (issue 25, spec §7 POST /tencent-email/exchange; the spec names the call only).
 *
 * What it is for: the product mails verification codes and company notices (PUT /company/emailNotice). Tencent
 * mailboxes (QQ Mail, Tencent Exmail for a company domain) let a client send only with an authorisation code
 * (授权码) the mailbox owner generates in the mailbox's settings, instead of the password. An administrator
 * exchanges a Tencent mailbox address and its authorisation code for the product's sending mailbox: the server
 * logs in to the mailbox's SMTP server with them (smtp.qq.com for qq.com / foxmail.com, smtp.exmail.qq.com for
 * any other domain, port 465 with TLS; another host may be given for a relay), and only when that login succeeds
 * stores the mailbox — the code encrypted (AES-256-GCM) — and sends all mail through it from then on. Deleting it
 * returns to the deployment's configured mailer. The code is never answered back.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError, Codes } from '../../errors.ts';
import type { Clock, SysConfigRepo } from '../../ports.ts';
import type { SmtpAccount, SmtpPort } from './ports.ts';

const SETTING = 'mail_sender';
const QQ_DOMAINS = new Set(['qq.com', 'foxmail.com', 'vip.qq.com']);

export interface SenderView {
  email: string;
  name: string;
  host: string;
  port: number;
  secure: boolean;
  verifiedAt: number;
}

interface StoredSender extends SenderView {
  /** iv.tag.ciphertext, base64url. */
  code: string;
}

export interface MailboxDeps {
  settings: SysConfigRepo;
  smtp: SmtpPort;
  clock: Clock;
  /** Key material for the stored authorisation code. */
  secret: string;
}

/** The SMTP server of a Tencent mailbox address. */
export function tencentSmtpHost(email: string): string {
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  return QQ_DOMAINS.has(domain) ? 'smtp.qq.com' : 'smtp.exmail.qq.com';
}

export class MailboxService {
  private readonly key: Buffer;
  constructor(private readonly deps: MailboxDeps) {
    this.key = createHash('sha256').update(`mail-sender:${deps.secret}`).digest();
  }

  private seal(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return [iv, c.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  private open(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((s) => Buffer.from(s, 'base64url'));
    const d = createDecipheriv('aes-256-gcm', this.key, iv!);
    d.setAuthTag(tag!);
    return Buffer.concat([d.update(body!), d.final()]).toString('utf8');
  }

  private accountOf(s: StoredSender, code: string): SmtpAccount {
    return {
      host: s.host,
      port: s.port,
      secure: s.secure,
      user: s.email,
      pass: code,
      from: s.name ? `${s.name.replace(/[<>"]/g, '')} <${s.email}>` : s.email,
    };
  }

  /** POST /tencent-email/exchange: verify the mailbox with its authorisation code, then send through it. */
  async exchange(input: {
    email: string;
    authCode: string;
    name?: string | undefined;
    host?: string | undefined;
    port?: number | undefined;
    secure?: boolean | undefined;
  }): Promise<SenderView> {
    const email = input.email.trim().toLowerCase();
    const sender: StoredSender = {
      email,
      name: input.name?.trim() ?? '',
      host: input.host ?? tencentSmtpHost(email),
      port: input.port ?? 465,
      secure: input.secure ?? (input.port ?? 465) === 465,
      verifiedAt: this.deps.clock.now(),
      code: '',
    };
    const account = this.accountOf(sender, input.authCode);
    try {
      await this.deps.smtp.verify(account);
    } catch (err) {
      const why = (err as { response?: string; message?: string }).response ?? (err as Error).message;
      throw new AppError(Codes.REFUSED, `the mailbox refused the authorisation code: ${why}`);
    }
    sender.code = this.seal(input.authCode);
    await this.deps.settings.set(SETTING, JSON.stringify(sender), this.deps.clock.now());
    this.deps.smtp.use(account);
    return view(sender);
  }

  /** The mailbox in use, or null (the deployment's configured mailer). */
  async current(): Promise<SenderView | null> {
    const s = await this.stored();
    return s ? view(s) : null;
  }

  /** The stored mailbox as an SMTP account (for the mailer at start), or null. */
  async account(): Promise<SmtpAccount | null> {
    const s = await this.stored();
    if (!s) return null;
    try {
      return this.accountOf(s, this.open(s.code));
    } catch {
      return null; // sealed with another secret: fall back to the configured mailer
    }
  }

  async remove(): Promise<{ removed: boolean }> {
    const had = (await this.stored()) !== null;
    await this.deps.settings.set(SETTING, '', this.deps.clock.now());
    this.deps.smtp.use(null);
    return { removed: had };
  }

  private async stored(): Promise<StoredSender | null> {
    const raw = await this.deps.settings.get(SETTING);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as StoredSender;
    } catch {
      return null;
    }
  }
}

const view = (s: StoredSender): SenderView => ({
  email: s.email,
  name: s.name,
  host: s.host,
  port: s.port,
  secure: s.secure,
  verifiedAt: s.verifiedAt,
});
