/**
 * Issue 15 (what a first-time user trips over), server side: byte ranges on stored files, the embedded mail's
 * path and code on the console, SMTP as one variable.
 */
import { describe, expect, it } from 'vitest';
import { parseRange } from '../src/modules/cos/routes.ts';
import { databases, useServer } from './harness.ts';

describe('15.1 parseRange', () => {
  it('reads the three forms of one range and refuses what lies past the end', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});

describe.each(databases)('15.1 stored files are served with byte ranges (local storage), on %s', (kind) => {
  const t = useServer(kind);
  it('206 with Content-Range for a range, Accept-Ranges on the whole file, 416 past the end', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await t.infra.storage.put('videos/u1/x/source.mp4', bytes, { contentType: 'video/mp4' });
    const url = new URL(
      await t.infra.storage.signedUrl('videos/u1/x/source.mp4', { expiresInS: 60, contentType: 'video/mp4' }),
      'http://x',
    );
    const get = (range?: string) =>
      t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: range ? { range } : {} });
    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const mid = await get('bytes=2500-2599');
    expect(mid.statusCode).toBe(206);
    expect(mid.headers['content-range']).toBe('bytes 2500-2599/5000');
    expect(mid.headers['content-length']).toBe('100');
    expect(mid.rawPayload.equals(bytes.subarray(2500, 2600))).toBe(true);
    const tail = await get('bytes=-10');
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(4990))).toBe(true);
    const past = await get('bytes=6000-');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */5000');
  });
});
