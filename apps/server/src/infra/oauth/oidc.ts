/**
 * Third-party login over OpenID Connect: the authorization code flow with `state`, PKCE (S256) and `nonce`.
 *
 *  1. `begin(redirectUri)` makes a random state, nonce and PKCE verifier and returns the provider's authorization
 *     URL (from the issuer's discovery document) plus the pending authorization; the route keeps that in a sealed,
 *     HttpOnly, short-lived cookie of the browser that started it (`sealPending`).
 *  2. The provider sends the browser back with `code` and `state`; `exchange(code, redirectUri, {state, pending})`
 *     refuses a state that is not the browser's, an expired or foreign pending authorization, then redeems the code
 *     at the token endpoint with the verifier and checks the ID token: signature against the issuer's JWKS (RS256,
 *     PS256, ES256, EdDSA), `iss`, `aud`/`azp`, `exp`/`iat`, `nonce`. Only a verified e-mail is accepted (an
 *     unverified one would let anyone claim an existing account by address).
 */
import { createHash, createPublicKey, type JsonWebKey, randomBytes, verify } from 'node:crypto';
import { AppError, Codes } from '../../errors.ts';
import type { Clock, ExternalIdentity, OAuthProvider, PendingAuthorization } from '../../ports.ts';

export interface OidcOptions {
  name: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  clock: Clock;
  /** Pending authorizations live this long (default 10 minutes). */
  pendingTtlMs?: number;
  fetch?: typeof fetch;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const b64url = (b: Buffer) => b.toString('base64url');
const refused = (why: string) => new AppError(Codes.AUTH_FAILED, `third-party login refused: ${why}`);

export function createOidcProvider(o: OidcOptions): OAuthProvider {
  const http = o.fetch ?? fetch;
  const ttl = o.pendingTtlMs ?? 10 * 60_000;
  const issuer = o.issuer.replace(/\/+$/, '');
  let discovery: Promise<Discovery> | undefined;
  let jwks: { at: number; keys: (JsonWebKey & { kid?: string; alg?: string })[] } | undefined;

  const getJson = async (url: string, init?: RequestInit): Promise<Record<string, unknown>> => {
    const r = await http(url, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await r.text();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw refused(`${new URL(url).pathname} answered ${r.status} with no JSON`);
    }
    if (!r.ok)
      throw refused(`${new URL(url).pathname} answered ${r.status} ${String(body.error ?? '')}`.trim());
    return body;
  };

  const discover = (): Promise<Discovery> => {
    discovery ??= getJson(`${issuer}/.well-known/openid-configuration`).then((d) => {
      for (const k of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const)
        if (typeof d[k] !== 'string') throw refused(`the discovery document has no ${k}`);
      if ((d.issuer as string).replace(/\/+$/, '') !== issuer) throw refused('the discovery issuer differs');
      return d as unknown as Discovery;
    });
    discovery.catch(() => {
      discovery = undefined;
    });
    return discovery;
  };

  const keyFor = async (kid: string | undefined): Promise<JsonWebKey> => {
    const d = await discover();
    const pick = () =>
      jwks?.keys.find((k) => (kid ? k.kid === kid : true) && (k as { use?: string }).use !== 'enc');
    // Keys rotate: fetch again when the kid is unknown (at most once a minute).
    if (!jwks || (!pick() && o.clock.now() - jwks.at > 60_000)) {
      const set = await getJson(d.jwks_uri);
      jwks = { at: o.clock.now(), keys: Array.isArray(set.keys) ? (set.keys as JsonWebKey[]) : [] };
    }
    const k = pick();
    if (!k) throw refused('the ID token is signed with a key the issuer does not publish');
    return k;
  };

  const checkIdToken = async (
    jwt: string,
    pending: PendingAuthorization,
  ): Promise<Record<string, unknown>> => {
    const parts = jwt.split('.');
    if (parts.length !== 3) throw refused('malformed ID token');
    let header: { alg?: string; kid?: string };
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      throw refused('malformed ID token');
    }
    const alg = header.alg ?? '';
    const algs: Record<string, { hash: string | null; opts?: object }> = {
      RS256: { hash: 'sha256' },
      PS256: { hash: 'sha256', opts: { padding: 6, saltLength: 32 } },
      ES256: { hash: 'sha256', opts: { dsaEncoding: 'ieee-p1363' } },
      EdDSA: { hash: null },
    };
    const a = algs[alg];
    if (!a) throw refused(`ID token algorithm ${alg || 'none'} is not accepted`);
    const key = createPublicKey({ key: await keyFor(header.kid), format: 'jwk' });
    const ok = verify(
      a.hash,
      Buffer.from(`${parts[0]}.${parts[1]}`),
      { key, ...(a.opts ?? {}) } as Parameters<typeof verify>[2],
      Buffer.from(parts[2], 'base64url'),
    );
    if (!ok) throw refused('the ID token signature is not valid');
    const now = Math.floor(o.clock.now() / 1000);
    if (String(claims.iss ?? '').replace(/\/+$/, '') !== issuer)
      throw refused('the ID token is from another issuer');
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(o.clientId)) throw refused('the ID token is for another client');
    if (aud.length > 1 && claims.azp !== o.clientId) throw refused('the ID token is for another client');
    if (typeof claims.exp !== 'number' || claims.exp + 60 < now) throw refused('the ID token has expired');
    if (typeof claims.iat === 'number' && claims.iat - 60 > now)
      throw refused('the ID token is from the future');
    if (claims.nonce !== pending.nonce) throw refused('the ID token nonce does not match this login');
    return claims;
  };

  return {
    name: o.name,
    label: o.label,
    async begin(redirectUri: string) {
      const d = await discover();
      const state = b64url(randomBytes(24));
      const nonce = b64url(randomBytes(24));
      const verifier = b64url(randomBytes(48));
      const challenge = b64url(createHash('sha256').update(verifier).digest());
      const url = new URL(d.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: o.clientId,
        redirect_uri: redirectUri,
        scope: o.scopes,
        state,
        nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      return {
        url: url.toString(),
        pending: { provider: o.name, state, nonce, verifier, redirectUri, expiresAt: o.clock.now() + ttl },
      };
    },
    async exchange(code, _redirectUri, auth): Promise<ExternalIdentity> {
      const pending = auth?.pending;
      if (!pending) throw refused('no login was started in this browser (or it expired): start again');
      if (pending.provider !== o.name) throw refused('the login was started with another provider');
      if (pending.expiresAt < o.clock.now()) throw refused('the login took too long: start again');
      if (!auth?.state || auth.state !== pending.state) throw refused('state does not match this browser');
      const d = await discover();
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: pending.redirectUri,
        client_id: o.clientId,
        code_verifier: pending.verifier,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (o.clientSecret)
        headers.authorization = `Basic ${Buffer.from(
          `${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`,
        ).toString('base64')}`;
      const tokens = await getJson(d.token_endpoint, { method: 'POST', headers, body: form.toString() });
      if (typeof tokens.id_token !== 'string') throw refused('the provider returned no ID token');
      const claims = await checkIdToken(tokens.id_token, pending);
      const email = typeof claims.email === 'string' ? claims.email : '';
      if (!email) throw refused('the provider gave no e-mail address (scope "email")');
      if (claims.email_verified !== true && claims.email_verified !== 'true')
        throw refused('the provider has not verified this e-mail address');
      if (typeof claims.sub !== 'string' || !claims.sub) throw refused('the ID token has no subject');
      return {
        provider: o.name,
        externalId: claims.sub,
        email,
        name: typeof claims.name === 'string' ? claims.name : undefined,
      };
    },
  };
}
