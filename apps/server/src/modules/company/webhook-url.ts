/**
 * What a webhook URL may be (issue 20). A webhook makes the server post to an address a company chose, so in a
 * deployment (`public` targets, the production default) it must be https, name a public host — no loopback,
 * private, link-local, carrier-grade NAT, multicast or reserved address, no `localhost` / `.local` / `.internal`
 * name — and carry no user name or password; at most 1024 characters. The poster checks the addresses a name
 * resolves to again when it connects (a name pointed at a private address later is refused then). `any` targets
 * (development and tests: a receiver on this machine) allow http and every address.
 */
import { isIP } from 'node:net';
import { AppError, Codes } from '../../errors.ts';

export type WebhookTargets = 'public' | 'any';
export const MAX_WEBHOOK_URL = 1024;

const v4 = (ip: string): number[] | null => {
  const p = ip.split('.').map(Number);
  return p.length === 4 && p.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? p : null;
};

/** True for an address that is not a public unicast one (IPv4 or IPv6, IPv4-mapped IPv6 included). */
export function isPrivateAddress(ip: string): boolean {
  const a = ip.replace(/^\[|\]$/g, '').toLowerCase();
  const q = v4(a);
  if (q) {
    const [x, y] = q as [number, number, number, number];
    return (
      x === 0 ||
      x === 10 ||
      x === 127 ||
      (x === 100 && y >= 64 && y <= 127) ||
      (x === 169 && y === 254) ||
      (x === 172 && y >= 16 && y <= 31) ||
      (x === 192 && y === 168) ||
      (x === 192 && y === 0 && q[2] === 0) ||
      (x === 198 && (y === 18 || y === 19)) ||
      x >= 224
    );
  }
  if (isIP(a) !== 6) return true; // not an address at all: never "public"
  const mapped =
    /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hexMapped) {
    const hi = Number.parseInt(hexMapped[1]!, 16);
    const lo = Number.parseInt(hexMapped[2]!, 16);
    return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (a === '::' || a === '::1') return true;
  const first = Number.parseInt(a.split(':')[0] || '0', 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    a.startsWith('2001:db8:') || // documentation
    a.startsWith('64:ff9b:') // NAT64 (reaches IPv4 space)
  );
}

const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Checks a webhook URL against the deployment's targets; answers it normalised or throws 1001 with the reason. */
export function checkWebhookUrl(raw: string, targets: WebhookTargets): URL {
  if (raw.length > MAX_WEBHOOK_URL)
    throw new AppError(Codes.PARAMETER_ERROR, `webhook url: at most ${MAX_WEBHOOK_URL} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError(Codes.PARAMETER_ERROR, 'webhook url is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new AppError(Codes.PARAMETER_ERROR, 'webhook url must be http(s)');
  if (u.username || u.password)
    throw new AppError(Codes.PARAMETER_ERROR, 'webhook url must not carry a user name or password');
  if (targets === 'public') {
    if (u.protocol !== 'https:') throw new AppError(Codes.PARAMETER_ERROR, 'webhook url must be https');
    const host = u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    const literal = isIP(host) !== 0 || /^[0-9.]+$/.test(host) || /^0x/i.test(host);
    if ((literal && isPrivateAddress(host)) || (!literal && (LOCAL_NAME.test(host) || !host.includes('.'))))
      throw new AppError(
        Codes.PARAMETER_ERROR,
        'webhook url must name a public host (no loopback, private or link-local address)',
      );
  }
  if (u.toString().length > MAX_WEBHOOK_URL)
    throw new AppError(Codes.PARAMETER_ERROR, `webhook url: at most ${MAX_WEBHOOK_URL} characters`);
  return u;
}
