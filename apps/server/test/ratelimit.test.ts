/**
 * Rate limiters: the in-process sliding window, and the Redis one shared by every server process in scale-out
 * mode (Redis at 127.0.0.1:6379; skipped locally when down, required under CI=true).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, type RedisLike } from '../src/infra/ratelimit.ts';
import type { RateLimiter } from '../src/ports.ts';
import { CI, TestClock } from './harness.ts';
import { redisAvailable } from './services.ts';

function behaves(make: (clock: TestClock) => RateLimiter[]) {
  it('allows `limit` hits per window, then refuses with the time to wait', async () => {
    const clock = new TestClock();
    const [a] = make(clock);
    const key = `k-${Math.random()}`;
    for (let i = 0; i < 3; i++) expect((await a.hit(key, 3, 60_000)).allowed).toBe(true);
    clock.advance(10_000);
    const refused = await a.hit(key, 3, 60_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    clock.advance(60_001);
    expect((await a.hit(key, 3, 60_000)).allowed).toBe(true);
    await a.reset(key);
  });

  it('keys are independent and reset clears one', async () => {
    const clock = new TestClock();
    const [a] = make(clock);
    const k1 = `a-${Math.random()}`;
    const k2 = `b-${Math.random()}`;
    expect((await a.hit(k1, 1, 60_000)).allowed).toBe(true);
    expect((await a.hit(k1, 1, 60_000)).allowed).toBe(false);
    expect((await a.hit(k2, 1, 60_000)).allowed).toBe(true);
    await a.reset(k1);
    expect((await a.hit(k1, 1, 60_000)).allowed).toBe(true);
    await a.reset(k1);
    await a.reset(k2);
  });
}

describe('memory rate limiter', () => {
  behaves((clock) => [createMemoryRateLimiter(() => clock.now())]);
});

describe.skipIf(!redisAvailable && !CI)('redis rate limiter', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });
  const make = (clock: TestClock) => {
    const c = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    clients.push(c);
    return [
      createRedisRateLimiter(c as unknown as RedisLike, { prefix: 'mocap-test:rl:', now: () => clock.now() }),
    ];
  };
  behaves(make);

  it('is shared between processes (two clients, one budget), also under concurrency', async () => {
    const clock = new TestClock();
    const [a] = make(clock);
    const [b] = make(clock);
    const key = `shared-${Math.random()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit(key, 5, 60_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    await a.reset(key);
  });
});
