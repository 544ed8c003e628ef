/** The browser-side MD5 (issue 15.5) against node's. */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Md5, md5OfBlob } from '../src/lib/md5.ts';

describe('Md5', () => {
  it('matches node:crypto for RFC vectors and random data in uneven chunks', async () => {
    expect(new Md5().digest()).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(new Md5().update(new TextEncoder().encode('abc')).digest()).toBe(
      '900150983cd24fb0d6963f7d28e17f72',
    );
    for (const n of [1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const data = randomBytes(n);
      const h = new Md5();
      for (let i = 0; i < n; i += 37) h.update(data.subarray(i, Math.min(n, i + 37)));
      expect(h.digest(), `n=${n}`).toBe(createHash('md5').update(data).digest('hex'));
    }
    const big = randomBytes(9 * 1024 * 1024 + 7);
    expect(await md5OfBlob(new Blob([big]))).toBe(createHash('md5').update(big).digest('hex'));
  });
});
