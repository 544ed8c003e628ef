/**
 * The public API (issue 20): the operations a script calls with an API key. This list is three things at once:
 * the allow-list of API keys (a key is refused on every other route, administrator routes included), the paths of
 * its own OpenAPI document (`GET /product/company/openapi.json`, `publicApiDocument`), and so the operations of
 * the typed client generated from that document (packages/client).
 */

/** `[method, OpenAPI path]` of every operation an API key may call. */
export const PUBLIC_API_OPERATIONS: readonly (readonly [string, string])[] = [
  // the company
  ['get', '/product/auth/company/info'],
  ['post', '/product/company/surplus/record'],
  ['get', '/product/company/emailNotice'],
  ['put', '/product/company/emailNotice'],
  // upload: multipart, or an upload grant for large files (grant → PUT the bytes → confirm)
  ['post', '/product/video/upload'],
  ['get', '/product/cos/sts/upload'],
  ['put', '/product/cos/upload'],
  ['post', '/product/video/uploads'],
  // status, progress, list
  ['post', '/product/video/queryVideoById'],
  ['post', '/product/video/checkWaiting/{id}'],
  ['get', '/product/video/progress/{id}'],
  ['post', '/product/video/center'],
  // results: bone types, what a video offers, a download URL per bone type
  ['get', '/product/motion/boneTypes'],
  ['get', '/product/motion/video/{id}'],
  ['get', '/product/motion/download/{bodyType}/{id}/{boneType}'],
  // remake, delete
  ['post', '/product/video/videoRedo'],
  ['delete', '/product/video/center/{id}'],
];

/** The name of an operation in a key's own list: `GET /product/video/progress/{id}`. */
export const operationName = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;
/** Every public operation by name, in the list's order. */
export const PUBLIC_OPERATION_NAMES: readonly string[] = PUBLIC_API_OPERATIONS.map(([m, p]) =>
  operationName(m, p),
);
const ALLOWED = new Set(PUBLIC_OPERATION_NAMES);

/**
 * Whether an API key may call the route `url` (Fastify's pattern, e.g. `/product/video/center/:id`): a public
 * operation, and one of the key's own `routes` when it has a list (null: every public operation).
 */
export function keyMayCall(method: string, url: string, routes: readonly string[] | null = null): boolean {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const name = operationName(m, url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
  return ALLOWED.has(name) && (routes === null || routes.includes(name));
}

export const PUBLIC_API_DESCRIPTION =
  'Send `Authorization: Bearer <API key>` (create keys on the company info page); a key works on these operations only. Answers are `{code, message, data}`; code 0 is success. Creating calls accept `Idempotency-Key` (a retried upload is charged once). Large files: `GET /cos/sts/upload` (an upload grant), PUT the bytes to its `uploadUrl`, then `POST /video/uploads` with its `sessionToken`. Webhooks (video.made, video.failed, balance.low) are signed `Mocap-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.';

// biome-ignore lint/suspicious/noExplicitAny: the generated OpenAPI document is untyped JSON.
type Doc = any;

/** The creating calls that take an `Idempotency-Key` header (a retry answers the first result, charged once). */
const IDEMPOTENT = new Set(['POST /product/video/upload', 'POST /product/video/uploads']);
const IDEMPOTENCY_HEADER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'any 1-128 visible ASCII characters: a retry with the same key answers the first result and is charged once',
  schema: { type: 'string', minLength: 1, maxLength: 128 },
};

/**
 * The full OpenAPI document filtered to the public operations (with the components they share); the creating
 * calls get their `Idempotency-Key` header documented.
 */
export function publicApiDocument(full: Doc): Doc {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [method, path] of PUBLIC_API_OPERATIONS) {
    let op = full.paths?.[path]?.[method];
    if (!op) continue;
    if (IDEMPOTENT.has(operationName(method, path)))
      op = { ...op, parameters: [...(op.parameters ?? []), IDEMPOTENCY_HEADER] };
    paths[path] = { ...(paths[path] ?? {}), [method]: op };
  }
  return withUsedSchemas({
    openapi: full.openapi,
    info: {
      title: 'mocap public API',
      version: full.info?.version ?? '1.0.0',
      description: PUBLIC_API_DESCRIPTION,
    },
    servers: full.servers,
    components: full.components,
    paths,
  });
}

/** The names of the component schemas `node` refers to (`$ref: '#/components/schemas/<name>'`), directly. */
function refsIn(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const v of node) refsIn(v, into);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/'))
        into.add(v.slice('#/components/schemas/'.length));
      else refsIn(v, into);
    }
}

/**
 * The document with only the component schemas its paths use, directly or through other components (the zod
 * registry gives every registered schema an input and an output form; a document keeps the ones it refers to).
 */
export function withUsedSchemas(doc: Doc): Doc {
  const all: Record<string, unknown> = doc.components?.schemas ?? {};
  const used = new Set<string>();
  refsIn(doc.paths, used);
  for (let grew = true; grew; ) {
    const before = used.size;
    for (const name of [...used]) refsIn(all[name], used);
    grew = used.size > before;
  }
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  return { ...doc, components: { ...doc.components, schemas } };
}
