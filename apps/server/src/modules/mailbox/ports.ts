/** Ports of the mailbox slice (issue 25, spec §7 POST /tencent-email/exchange). */

/** An SMTP account the product sends its mail through. */
export interface SmtpAccount {
  host: string;
  port: number;
  /** Implicit TLS (port 465). */
  secure: boolean;
  user: string;
  pass: string;
  /** `Name <address>`. */
  from: string;
}

export interface SmtpPort {
  /** Logs in to the server with the account (and quits); throws with the server's answer when refused. */
  verify(account: SmtpAccount): Promise<void>;
  /** Sends all mail through `account` from now on (null: the deployment's configured mailer again). */
  use(account: SmtpAccount | null): void;
}
