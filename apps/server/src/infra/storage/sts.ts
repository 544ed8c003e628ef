/**
 * STS AssumeRole over its real protocol (AWS STS query API 2011-06-15, which MinIO's STS API implements): a POST of
 * `Action=AssumeRole&Version=2011-06-15&DurationSeconds=…&Policy=…` (form-encoded), signed with Signature V4 for
 * service `sts`, answered with an `AssumeRoleResponse` XML holding AccessKeyId, SecretAccessKey, SessionToken and
 * Expiration. The session policy narrows the caller's rights to what one grant needs (a user's prefix, one key).
 * AWS needs `RoleArn` (and a session name); MinIO ignores both and issues credentials for the calling user.
 */
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

export interface StsOptions {
  /** The STS endpoint, e.g. `http://127.0.0.1:9000` (MinIO: the S3 endpoint itself) or `https://sts.amazonaws.com`. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The role to assume (AWS: required; MinIO: ignored). */
  roleArn?: string;
}

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** unix seconds */
  expiration: number;
}

export class StsError extends Error {}

/** node:crypto in the shape SignatureV4 takes (a hash, or an HMAC with a secret). */
type Source = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (d: Source): string | Uint8Array =>
  typeof d === 'string'
    ? d
    : d instanceof ArrayBuffer
      ? new Uint8Array(d)
      : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

class NodeSha256 {
  private readonly h;
  constructor(secret?: Source) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: Source): void {
    this.h.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
  reset(): void {}
}

/** A session policy allowing `actions` on `resources` (S3 ARNs). */
export function sessionPolicy(
  statements: { actions: string[]; resources: string[]; condition?: Record<string, unknown> }[],
): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: statements.map((s) => ({
      Effect: 'Allow',
      Action: s.actions,
      Resource: s.resources,
      ...(s.condition ? { Condition: s.condition } : {}),
    })),
  });
}

function tag(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

export class StsClient {
  private readonly signer: SignatureV4;
  private readonly url: URL;

  constructor(private readonly opts: StsOptions) {
    this.url = new URL(opts.endpoint);
    this.signer = new SignatureV4({
      service: 'sts',
      region: opts.region,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      sha256: NodeSha256,
    });
  }

  /** Temporary credentials limited by `policy` (a session policy) for `durationS` seconds (STS allows 900..43200). */
  async assumeRole(o: {
    policy: string;
    durationS: number;
    sessionName: string;
  }): Promise<TemporaryCredentials> {
    const params = new URLSearchParams({
      Action: 'AssumeRole',
      Version: '2011-06-15',
      DurationSeconds: String(Math.max(900, Math.min(43200, Math.round(o.durationS)))),
      Policy: o.policy,
      RoleSessionName: o.sessionName,
    });
    if (this.opts.roleArn) params.set('RoleArn', this.opts.roleArn);
    const body = params.toString();
    const path = this.url.pathname || '/';
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path,
      headers: {
        host: this.url.host,
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      },
      body,
      query: {},
    });
    const headers = { ...signed.headers };
    delete headers.host;
    let res: Response;
    try {
      res = await fetch(new URL(path, this.url), {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new StsError(`STS unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      throw new StsError(
        `STS AssumeRole ${res.status}: ${tag(text, 'Code') ?? ''} ${tag(text, 'Message') ?? ''}`,
      );
    }
    const accessKeyId = tag(text, 'AccessKeyId');
    const secretAccessKey = tag(text, 'SecretAccessKey');
    const sessionToken = tag(text, 'SessionToken');
    const expiration = Date.parse(tag(text, 'Expiration') ?? '');
    if (!accessKeyId || !secretAccessKey || !sessionToken || !Number.isFinite(expiration)) {
      throw new StsError('STS AssumeRole: no credentials in the answer');
    }
    return { accessKeyId, secretAccessKey, sessionToken, expiration: Math.floor(expiration / 1000) };
  }
}
