/**
 * The curl steps of the API tutorial (issue 20). The page shows exactly these commands, and the server suite runs
 * them with bash against a live server (apps/server/test/company-tutorial.test.ts), so the tutorial cannot go stale.
 * Variables: BASE (the API base, e.g. https://host/product), KEY (an API key), VIDEO (an MP4 path), ID (a video id).
 */
export interface TutorialStep {
  key: 'co.tut.s1' | 'co.tut.s2' | 'co.tut.s3' | 'co.tut.s4';
  curl: string;
}

export const TUTORIAL_STEPS: readonly TutorialStep[] = [
  {
    key: 'co.tut.s1',
    curl: 'curl -s -H "Authorization: Bearer $KEY" "$BASE/auth/company/info"',
  },
  {
    key: 'co.tut.s2',
    curl: 'curl -s -H "Authorization: Bearer $KEY" -H "Idempotency-Key: walk-1" -F name=walk -F boneType=Mixamo -F tags=api -F "file=@$VIDEO;type=video/mp4" "$BASE/video/upload"',
  },
  {
    key: 'co.tut.s3',
    curl: 'curl -s -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" -d "{\\"id\\":$ID}" "$BASE/video/queryVideoById"',
  },
  {
    key: 'co.tut.s4',
    curl: 'curl -s -H "Authorization: Bearer $KEY" "$BASE/motion/download/video/$ID/Mixamo"',
  },
];

/** The signature check a webhook receiver runs (Node), shown on the page. */
export const WEBHOOK_VERIFY_JS = `import { createHmac, timingSafeEqual } from 'node:crypto';

function verify(secret, header, rawBody, nowS = Date.now() / 1000) {
  const m = /^t=(\\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m || Math.abs(nowS - Number(m[1])) > 300) return false; // replay window
  const want = createHmac('sha256', secret).update(\`\${m[1]}.\${rawBody}\`).digest();
  return timingSafeEqual(want, Buffer.from(m[2], 'hex'));
}`;

/** The whole flow in Node 20 (BASE, KEY, VIDEO in the environment): upload, wait until made, print the zip URL. */
export const TUTORIAL_JS = `import { openAsBlob } from 'node:fs';

const { BASE, KEY, VIDEO } = process.env;
const auth = { Authorization: \`Bearer \${KEY}\` };
const form = new FormData();
form.set('name', 'walk');
form.set('boneType', 'Mixamo');
form.set('tags', 'api');
form.set('file', await openAsBlob(VIDEO, { type: 'video/mp4' }), 'walk.mp4');
const up = await (await fetch(\`\${BASE}/video/upload\`, { method: 'POST', headers: auth, body: form })).json();
if (up.code !== 0) throw new Error(up.message);
const id = up.data.id;
for (;;) {
  const res = await fetch(\`\${BASE}/video/queryVideoById\`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ id }),
  });
  const { data } = await res.json();
  if (data.status === 2) break;
  if (data.status === 3) throw new Error('capture failed');
  await new Promise((r) => setTimeout(r, 5000));
}
const dl = await (await fetch(\`\${BASE}/motion/download/video/\${id}/Mixamo\`, { headers: auth })).json();
console.log(dl.data.paths[0]);
`;

/** The same in Python 3 with requests. */
export const TUTORIAL_PY = `import os, time, requests

BASE, KEY, VIDEO = os.environ["BASE"], os.environ["KEY"], os.environ["VIDEO"]
auth = {"Authorization": f"Bearer {KEY}"}
with open(VIDEO, "rb") as f:
    up = requests.post(f"{BASE}/video/upload", headers=auth,
                       data={"name": "walk", "boneType": "Mixamo", "tags": "api"},
                       files={"file": ("walk.mp4", f, "video/mp4")}).json()
if up["code"] != 0:
    raise SystemExit(up["message"])
vid = up["data"]["id"]
while True:
    data = requests.post(f"{BASE}/video/queryVideoById", headers=auth, json={"id": vid}).json()["data"]
    if data["status"] == 2:
        break
    if data["status"] == 3:
        raise SystemExit("capture failed")
    time.sleep(5)
dl = requests.get(f"{BASE}/motion/download/video/{vid}/Mixamo", headers=auth).json()
print(dl["data"]["paths"][0])
`;

/**
 * The same flow in TypeScript with the typed client of this repository (packages/client, `@mocap/client`: types
 * generated from the OpenAPI document, calls through openapi-fetch), uploading through an upload grant — the way
 * for large files. Run with `npx tsx flow.ts` (BASE, KEY, VIDEO in the environment).
 */
export const TUTORIAL_TS = `import { openAsBlob } from 'node:fs';
import { createMocapClient, data, uploadLargeVideo } from '@mocap/client';

const { BASE = '', KEY = '', VIDEO = '' } = process.env;
// the client's paths start with /product: its base is the server's origin
const mocap = createMocapClient({ baseUrl: BASE.replace(/\\/product$/, ''), apiKey: KEY });
// an upload grant (GET /cos/sts/upload, PUT the bytes, POST /video/uploads); uploadVideo sends one multipart request
const video = await uploadLargeVideo(mocap, {
  file: await openAsBlob(VIDEO, { type: 'video/mp4' }),
  fileName: 'walk.mp4',
  fields: { name: 'walk', boneType: 'Mixamo', tags: ['api'] },
  idempotencyKey: 'walk-1', // a retry with the same key answers the same video, charged once
});
for (;;) {
  const v = data(await mocap.POST('/product/video/queryVideoById', { body: { id: video.id } }));
  if (v.status === 2) break;
  if (v.status === 3) throw new Error('capture failed');
  await new Promise((r) => setTimeout(r, 5000));
}
const dl = data(
  await mocap.GET('/product/motion/download/{bodyType}/{id}/{boneType}', {
    params: { path: { bodyType: 'video', id: video.id, boneType: 'Mixamo' } },
  }),
);
console.log(dl.paths[0]);
`;
