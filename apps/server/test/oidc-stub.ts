/**
 * A tiny OpenID Connect provider on 127.0.0.1 for tests: discovery, authorize (records the PKCE challenge, the
 * redirect URI and the nonce, then redirects back with a one-time code), token (checks client secret, redirect URI
 * and the S256 verifier; signs an RS256 ID token), JWKS. `nextUser` is who "logs in" at the provider.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface StubUser {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface OidcStub {
  issuer: string;
  clientId: string;
  clientSecret: string;
  nextUser: StubUser;
  /** Codes redeemed and refused at the token endpoint. */
  redeemed: number;
  refusals: string[];
  /** Sign ID tokens with a key the JWKS does not publish (forgery test). */
  forgeSignature: boolean;
  close(): Promise<void>;
}

export async function startOidcStub(): Promise<OidcStub> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<
    string,
    { challenge: string; redirectUri: string; nonce: string; clientId: string; user: StubUser }
  >();
  const stub = {
    issuer: '',
    clientId: 'mocap-test',
    clientSecret: randomBytes(12).toString('hex'),
    nextUser: { sub: 'u-1', email: 'sso@example.com', email_verified: true, name: 'SSO User' },
    redeemed: 0,
    refusals: [] as string[],
    forgeSignature: false,
  } as OidcStub;
  const jwt = (claims: object, key: KeyObject) => {
    const h = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'JWT' })).toString('base64url');
    const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${h}.${p}.${sign('sha256', Buffer.from(`${h}.${p}`), key).toString('base64url')}`;
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', stub.issuer);
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration')
      return json(200, {
        issuer: stub.issuer,
        authorization_endpoint: `${stub.issuer}/authorize`,
        token_endpoint: `${stub.issuer}/token`,
        jwks_uri: `${stub.issuer}/jwks`,
      });
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('state'))
        return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        challenge: q.get('code_challenge') ?? '',
        redirectUri: q.get('redirect_uri') ?? '',
        nonce: q.get('nonce') ?? '',
        clientId: q.get('client_id') ?? '',
        user: { ...stub.nextUser },
      });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        const f = new URLSearchParams(body);
        const refuse = (why: string) => {
          stub.refusals.push(why);
          json(400, { error: 'invalid_grant', error_description: why });
        };
        const auth = Buffer.from(
          (req.headers.authorization ?? '').replace(/^Basic /, ''),
          'base64',
        ).toString();
        if (auth !== `${stub.clientId}:${stub.clientSecret}`) return refuse('client');
        const c = codes.get(f.get('code') ?? '');
        if (!c) return refuse('code');
        codes.delete(f.get('code') ?? '');
        if (c.redirectUri !== f.get('redirect_uri')) return refuse('redirect_uri');
        const challenge = createHash('sha256')
          .update(f.get('code_verifier') ?? '')
          .digest('base64url');
        if (challenge !== c.challenge) return refuse('pkce');
        stub.redeemed++;
        const now = Math.floor(Date.now() / 1000);
        return json(200, {
          access_token: randomBytes(8).toString('hex'),
          token_type: 'Bearer',
          id_token: jwt(
            { iss: stub.issuer, aud: c.clientId, iat: now, exp: now + 300, nonce: c.nonce, ...c.user },
            stub.forgeSignature ? forger : privateKey,
          ),
        });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  stub.issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  stub.close = () => new Promise((r) => server.close(() => r()));
  return stub;
}
