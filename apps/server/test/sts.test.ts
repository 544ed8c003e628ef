/**
 * /cos/sts/download and /cos/sts/upload with real temporary credentials (issue 25). s3rver has no STS API, so a
 * small local STS endpoint stands in for MinIO's / AWS's: it checks each AssumeRole call's Signature V4 with its
 * own implementation of the algorithm (not the server's signer), records the form fields (Action, Version,
 * DurationSeconds, Policy, RoleArn) and answers AssumeRoleResponse XML as the real services do. Without an STS
 * service the same calls answer `sts: null` and the pre-signed path (302 from /cos/object) on s3rver, and the
 * read token stops working when it expires.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BucketCredentials, DownloadCredentials } from '@mocap/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Codes, StsClient, StsError } from '../src/index.ts';
import { useServer } from './harness.ts';
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, s3Env, startS3Server } from './s3-server.ts';

interface Call {
  form: URLSearchParams;
  policy: { Statement: { Effect: string; Action: string[]; Resource: string[]; Condition?: unknown }[] };
  accessKeyId: string;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** Signature V4 as the AWS documentation describes it, checked against the request's Authorization header. */
function checkSigV4(req: IncomingMessage, body: string, secrets: Record<string, string>): string {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) throw new Error(`not a SigV4 header: ${auth}`);
  const [, keyId, day, region, service, signedHeaders, signature] = m as unknown as string[];
  if (service !== 'sts') throw new Error(`service ${service}`);
  const secret = secrets[keyId!];
  if (!secret) throw new Error(`unknown key ${keyId}`);
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(day!)) throw new Error('date mismatch');
  const names = signedHeaders!.split(';');
  for (const need of ['host', 'x-amz-date', 'content-type']) {
    if (!names.includes(need)) throw new Error(`${need} not signed`);
  }
  const bodyHash = sha256(body);
  const declared = req.headers['x-amz-content-sha256'];
  if (declared !== undefined && declared !== bodyHash) throw new Error('body hash mismatch');
  const canonical = [
    req.method,
    new URL(req.url ?? '/', 'http://x').pathname,
    '',
    ...names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}`),
    '',
    signedHeaders,
    bodyHash,
  ].join('\n');
  const scope = `${day}/${region}/sts/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const kSigning = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), 'sts'), 'aws4_request');
  const expected = hmac(kSigning, toSign).toString('hex');
  if (expected !== signature) throw new Error('signature mismatch');
  return keyId!;
}

async function startFakeSts(secrets: Record<string, string>) {
  const calls: Call[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      try {
        const accessKeyId = checkSigV4(req, body, secrets);
        const form = new URLSearchParams(body);
        if (form.get('Action') !== 'AssumeRole' || form.get('Version') !== '2011-06-15')
          throw new Error('not AssumeRole');
        const duration = Number(form.get('DurationSeconds'));
        if (!(duration >= 900 && duration <= 43200)) throw new Error('bad duration');
        calls.push({ form, policy: JSON.parse(form.get('Policy') ?? '{}'), accessKeyId });
        const exp = new Date(Date.now() + duration * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><AssumedRoleUser><Arn></Arn><AssumeRoleId></AssumeRoleId></AssumedRoleUser><Credentials><AccessKeyId>TMP${calls.length}</AccessKeyId><SecretAccessKey>${randomBytes(12).toString('hex')}</SecretAccessKey><SessionToken>tok-${calls.length}-${randomBytes(6).toString('hex')}</SessionToken><Expiration>${exp}</Expiration></Credentials></AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`,
        );
      } catch (err) {
        res.writeHead(403, { 'content-type': 'text/xml' });
        res.end(
          `<ErrorResponse><Error><Code>SignatureDoesNotMatch</Code><Message>${(err as Error).message}</Message></Error></ErrorResponse>`,
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const sts = await startFakeSts({ [S3_ACCESS_KEY_ID]: S3_SECRET_ACCESS_KEY });
const s3 = await startS3Server('mocap-sts');
afterAll(async () => {
  await sts.close();
  await s3.close();
});

describe('the STS AssumeRole call', () => {
  it('is a SigV4-signed form POST with the session policy, and fails on a bad secret or answer', async () => {
    const client = new StsClient({
      endpoint: sts.url,
      region: 'us-east-1',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
      roleArn: 'arn:aws:iam::123456789012:role/mocap',
    });
    const before = Math.floor(Date.now() / 1000);
    const c = await client.assumeRole({
      policy: '{"Version":"2012-10-17","Statement":[]}',
      durationS: 1000,
      sessionName: 'mocap-7',
    });
    const call = sts.calls.at(-1)!;
    expect(call.form.get('DurationSeconds')).toBe('1000');
    expect(call.form.get('RoleArn')).toBe('arn:aws:iam::123456789012:role/mocap');
    expect(call.form.get('RoleSessionName')).toBe('mocap-7');
    expect(c.accessKeyId).toBe(`TMP${sts.calls.length}`);
    expect(c.sessionToken).toMatch(/^tok-/);
    expect(c.expiration - before).toBeGreaterThanOrEqual(999);
    expect(c.expiration - before).toBeLessThanOrEqual(1001);
    // Too short a lifetime is raised to STS's minimum.
    await client.assumeRole({ policy: '{}', durationS: 300, sessionName: 'x' });
    expect(sts.calls.at(-1)!.form.get('DurationSeconds')).toBe('900');

    const wrong = new StsClient({
      endpoint: sts.url,
      region: 'us-east-1',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: 'not-the-secret',
    });
    await expect(wrong.assumeRole({ policy: '{}', durationS: 900, sessionName: 'x' })).rejects.toThrow(
      /403: SignatureDoesNotMatch signature mismatch/,
    );
    const nowhere = new StsClient({
      endpoint: s3.url,
      region: 'us-east-1',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
    });
    await expect(
      nowhere.assumeRole({ policy: '{}', durationS: 900, sessionName: 'x' }),
    ).rejects.toBeInstanceOf(StsError);
  });
});

describe('/cos/sts/* on S3 with an STS service', () => {
  const t = useServer('sqlite', {
    env: { ...s3Env(s3), S3_STS_ENDPOINT: sts.url },
  });

  it('download: real temporary credentials limited to my prefix, expiring when STS says', async () => {
    const a = await t.register('sts-dl@example.com');
    const n = sts.calls.length;
    const r = await t.call<DownloadCredentials & { sts: BucketCredentials }>(
      'GET',
      '/product/cos/sts/download',
      {
        token: a.token,
      },
    );
    expect(r.code, r.message).toBe(0);
    expect(sts.calls.length).toBe(n + 1);
    const call = sts.calls.at(-1)!;
    expect(call.accessKeyId).toBe(S3_ACCESS_KEY_ID);
    expect(call.form.get('DurationSeconds')).toBe('3600');
    expect(r.data.storage).toBe('s3');
    expect(r.data.sts.accessKeyId).toBe(`TMP${sts.calls.length}`);
    expect(r.data.sts.bucket).toBe(s3.bucket);
    expect(r.data.sts.endpoint).toBe(s3.url);
    expect(r.data.sts.resource).toBe(`videos/u${a.id}/*`);
    expect(r.data.sts.expiredTime - r.data.startTime).toBeGreaterThanOrEqual(3599);
    expect(r.data.sts.expiredTime - r.data.startTime).toBeLessThanOrEqual(3601);
    // The read token keeps its own 300 s (the web refreshes it after 290 s).
    expect(r.data.expiredTime - r.data.startTime).toBe(300);
    expect(call.policy.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: [`arn:aws:s3:::${s3.bucket}/videos/u${a.id}/*`],
      },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [`arn:aws:s3:::${s3.bucket}`],
        Condition: { StringLike: { 's3:prefix': [`videos/u${a.id}/*`] } },
      },
    ]);
  });

  it('upload: credentials allowing PutObject on exactly the granted key, for the grant’s 1800 s', async () => {
    const a = await t.register('sts-up@example.com');
    const r = await t.call<{
      key: string;
      startTime: number;
      expiredTime: number;
      uploadUrl: string;
      sts: { accessKeyId: string; resource: string; expiredTime: number };
    }>('GET', '/product/cos/sts/upload?fileName=a.mp4', { token: a.token });
    expect(r.code, r.message).toBe(0);
    expect(r.data.key).toMatch(/^uploadZM\/[0-9a-f-]{36}\.mp4$/);
    const call = sts.calls.at(-1)!;
    expect(call.form.get('DurationSeconds')).toBe('1800');
    expect(call.policy.Statement).toEqual([
      { Effect: 'Allow', Action: ['s3:PutObject'], Resource: [`arn:aws:s3:::${s3.bucket}/${r.data.key}`] },
    ]);
    expect(r.data.sts.resource).toBe(r.data.key);
    expect(r.data.sts.accessKeyId).toBe(`TMP${sts.calls.length}`);
    expect(Math.abs(r.data.sts.expiredTime - r.data.expiredTime)).toBeLessThanOrEqual(1);
    expect(r.data.expiredTime - r.data.startTime).toBe(1800);
    // The pre-signed PUT still works alongside.
    expect(r.data.uploadUrl.startsWith(s3.url)).toBe(true);
    // Every upload gets new credentials.
    const again = await t.call<{ key: string; sts: { accessKeyId: string } }>(
      'GET',
      '/product/cos/sts/upload?fileName=b.mp4',
      { token: a.token },
    );
    expect(again.data.key).not.toBe(r.data.key);
    expect(again.data.sts.accessKeyId).not.toBe(r.data.sts.accessKeyId);
  });
});

describe('/cos/sts/* on S3 without an STS service (s3rver): pre-signed URLs', () => {
  const t = useServer('sqlite', {
    env: s3Env(s3),
  });
  let calls = 0;
  beforeAll(() => {
    calls = sts.calls.length;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers sts null, reads through a pre-signed URL, and the read token expires after 300 s', async () => {
    const a = await t.register('sts-none@example.com');
    const r = await t.call<DownloadCredentials>('GET', '/product/cos/sts/download', { token: a.token });
    expect(r.code, r.message).toBe(0);
    expect(r.data.storage).toBe('s3');
    expect(r.data.sts).toBeNull();
    const up = await t.call<{ sts: unknown; uploadUrl: string }>('GET', '/product/cos/sts/upload', {
      token: a.token,
    });
    expect(up.data.sts).toBeNull();
    expect(up.data.uploadUrl).toContain('X-Amz-Signature=');
    expect(sts.calls.length).toBe(calls);

    const key = `videos/u${a.id}/k/pose.json`;
    await t.infra.storage.put(key, '{"ok":1}', { contentType: 'application/json' });
    const open = () =>
      t.app.inject({
        method: 'GET',
        url: `/product/cos/object?key=${encodeURIComponent(key)}&token=${encodeURIComponent(r.data.credentials.sessionToken)}`,
      });
    const res = await open();
    expect(res.statusCode).toBe(302);
    const got = await fetch(String(res.headers.location));
    expect(await got.text()).toBe('{"ok":1}');
    // Past its expiry the token opens nothing.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((r.data.expiredTime + 1) * 1000);
    expect((await open()).json().code).toBe(Codes.AUTH_FAILED);
  });
});
