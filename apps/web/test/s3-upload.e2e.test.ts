/// <reference path="../../server/test/s3rver.d.ts" />
/**
 * Issue 25: with S3 storage the web uploads a video straight to the bucket (spec §4 credential caches: the cloud
 * auth says S3, upload credentials fetched for this upload, a PUT of the bytes to their pre-signed URL, then POST
 * /video/uploads), in Chromium against the real server on s3rver (a real S3-compatible server, with a CORS rule
 * as a bucket needs one for browsers). The server never receives the bytes in a multipart upload.
 */

import { join } from 'node:path';
import type { Request } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3Server } from '../../server/test/s3-server.ts';
import { e2eSkipped, TESTDATA, trimClip, useE2e } from './e2e-harness.ts';

const s3 = e2eSkipped() ? null : await startS3Server('mocap-web-upload', { cors: true });
afterAll(() => s3?.close());

describe.skipIf(e2eSkipped())('direct video upload to S3 storage (chromium + real server + s3rver)', () => {
  const run = useE2e({
    S3_BUCKET: s3?.bucket ?? '',
    S3_ENDPOINT: s3?.url ?? '',
    S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY,
  });
  const { register } = run.api;

  it('PUTs the file to the bucket with fresh upload credentials and confirms it', async () => {
    const server = run.server();
    const { token } = await register<{ token: string }>('s3-web@example.com', 's3-web-pass-1');
    const ctx = await run.context('en', token);
    const page = await ctx.newPage();
    const seen: { method: string; url: string }[] = [];
    page.on('request', (r: Request) => seen.push({ method: r.method(), url: r.url() }));
    await page.goto(`${server.url}/capture/index/uploadPc`);
    const clip = trimClip(join(TESTDATA, 'videos', 'mmhuman3d_single_person_basketball_outdoor.mp4'), 2, 320);
    await page.setInputFiles('[data-testid=file-input]', clip);
    await page.locator('video.chosen-video').waitFor();
    await page.fill('input[name=title]', 'Straight to S3');
    await page.fill('input[name=tag]', 's3');
    await page.press('input[name=tag]', 'Enter');
    await expect.poll(() => page.textContent('[data-testid=cost]')).toMatch(/Cost\s*\d+ V/);
    await page.click('[data-testid=upload-submit]');
    await page.getByRole('button', { name: 'Pay and upload' }).click();
    await page.waitForURL(/myProPc$/, { timeout: 120_000 });

    const path = (u: string) => new URL(u).pathname;
    const grants = seen.filter((r) => path(r.url) === '/product/cos/sts/upload');
    const puts = seen.filter((r) => r.method === 'PUT' && r.url.startsWith(s3!.url));
    // The cloud auth (storage kind) came from the download credentials; the upload credentials were fetched for it.
    expect(seen.filter((r) => path(r.url) === '/product/cos/sts/download')).toHaveLength(1);
    expect(grants).toHaveLength(1);
    expect(puts).toHaveLength(1);
    expect(path(puts[0]!.url)).toMatch(/^\/mocap-web-upload\/uploadZM\/[0-9a-f-]{36}\.mp4$/);
    expect(seen.filter((r) => path(r.url) === '/product/video/uploads' && r.method === 'POST')).toHaveLength(
      1,
    );
    expect(seen.some((r) => path(r.url) === '/product/video/upload')).toBe(false);
    // The bucket got the bytes as a pre-signed PUT; the confirmed video's source lives in the user's folder.
    expect(s3!.requests.some((r) => r.method === 'PUT' && r.signed === 'query')).toBe(true);
    const keys = await s3!.keys();
    expect(keys.some((k) => /^videos\/u\d+\/[0-9a-f-]+\/source\.mp4$/.test(k))).toBe(true);
    // The upload area is emptied once confirmed.
    expect(keys.some((k) => k.startsWith('uploadZM/'))).toBe(false);
    await page.locator('[data-testid=video-card]').first().waitFor();
    await ctx.close();
  }, 300_000);
});
