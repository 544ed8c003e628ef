/**
 * A small SMTP server on loopback for the mail tests: EHLO/HELO, AUTH PLAIN, MAIL, RCPT, DATA (dot-unstuffed),
 * RSET/NOOP, QUIT — enough of RFC 5321 for nodemailer to deliver. Each message lands in `received` with the login
 * of its session, its envelope and its text.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface Received {
  auth: string;
  from: string;
  to: string[];
  data: string;
}

export interface SmtpStubOptions {
  /** The name in the greeting and the EHLO answer. */
  host?: string;
  /**
   * An AUTH PLAIN login (the decoded `\0user\0password`): what to record as the session's `auth`, or null to refuse
   * it. Default: every login, recorded as it came.
   */
  login?: (plain: string) => string | null;
  /** The answers to a login accepted and refused. */
  loginOk?: string;
  loginRefused?: string;
}

export function smtpStub(received: Received[], o: SmtpStubOptions = {}): Server {
  const host = o.host ?? 'test';
  const login = o.login ?? ((plain: string) => plain);
  return createServer((sock: Socket) => {
    let buf = '';
    let inData = false;
    let cur: Received = { auth: '', from: '', to: [], data: '' };
    const say = (s: string) => sock.write(`${s}\r\n`);
    say(`220 ${host} ESMTP`);
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(cur);
            cur = { auth: cur.auth, from: '', to: [], data: '' };
            say('250 queued');
          } else cur.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') sock.write(`250-${host}\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n`);
        else if (cmd === 'HELO') say(`250 ${host}`);
        else if (cmd === 'AUTH') {
          const who = login(Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8'));
          if (who === null) say(o.loginRefused ?? '535 authentication failed');
          else {
            cur.auth = who;
            say(o.loginOk ?? '235 ok');
          }
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
