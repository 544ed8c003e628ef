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
    curl: 'curl -s -H "Authorization: Bearer $KEY" -F name=walk -F boneType=Mixamo -F tags=api -F "file=@$VIDEO;type=video/mp4" "$BASE/video/upload"',
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
