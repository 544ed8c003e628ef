/**
 * The webhook HTTP client (infrastructure of the company slice): a POST with a 10 s timeout, no redirects, the
 * answer's body read and dropped. With `public` targets (webhook-url.ts) every address the host resolves to is
 * checked when connecting — the connection is made to the checked address, so a name re-pointed at a private
 * address after the check is refused too — and literal private addresses are refused before connecting.
 */
import { type LookupAddress, lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookPoster } from './ports.ts';
import { isPrivateAddress, type WebhookTargets } from './webhook-url.ts';

/** A resolver that refuses names resolving to a private address (any of them). */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
    if (err) return (callback as (e: Error) => void)(err);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad || addresses.length === 0)
      return (callback as (e: Error) => void)(
        new Error(`webhook host ${hostname} resolves to a private address (${bad?.address ?? 'none'})`),
      );
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
  });
};

export const fetchPoster =
  (opts: { timeoutMs?: number; targets?: WebhookTargets } = {}): WebhookPoster =>
  (url, body, headers) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(url);
      const host = u.hostname.replace(/^\[|\]$/g, '');
      const strict = (opts.targets ?? 'public') === 'public';
      if (strict && u.protocol !== 'https:') return reject(new Error('webhook url must be https'));
      if (strict && isIP(host) && isPrivateAddress(host))
        return reject(new Error(`webhook host ${host} is a private address`));
      const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        u,
        {
          method: 'POST',
          headers: {
            ...headers,
            'user-agent': 'mocap-webhooks/1',
            'content-length': String(Buffer.byteLength(body)),
          },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
          ...(strict ? { lookup: publicOnlyLookup } : {}),
        },
        (res) => {
          res.resume(); // the answer's body is not kept
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
