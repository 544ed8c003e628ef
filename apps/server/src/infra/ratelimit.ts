/** In-process sliding-window rate limiter (per server process). */
import type { RateLimiter } from '../ports.ts';

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  let sweeps = 0;
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      const list = (hits.get(key) ?? []).filter((h) => h > t - windowMs);
      list.push(t);
      hits.set(key, list);
      if (++sweeps % 1000 === 0)
        for (const [k, v] of hits) if (v.length === 0 || v[v.length - 1] <= t - 3_600_000) hits.delete(k);
      if (list.length <= limit) return { allowed: true, retryAfterMs: 0 };
      return { allowed: false, retryAfterMs: Math.max(0, list[list.length - limit - 1] + windowMs - t) };
    },
    async reset(key) {
      hits.delete(key);
    },
  };
}

/**
 * Rate limiter shared by every server process (scale-out mode): a sliding window per key in a Redis sorted set.
 */
export function createRedisRateLimiter(
  redis: RedisLike,
  opts: { prefix?: string; now?: () => number } = {},
): RateLimiter {
  const prefix = opts.prefix ?? 'mocap:rl:';
  const now = opts.now ?? Date.now;
  let seq = 0;
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      const k = prefix + key;
      const member = `${t}:${process.pid}:${++seq}:${Math.random().toString(36).slice(2, 8)}`;
      const res = await redis
        .multi()
        .zremrangebyscore(k, 0, t - windowMs)
        .zadd(k, t, member)
        .zcard(k)
        .zrange(k, 0, 0, 'WITHSCORES')
        .pexpire(k, windowMs)
        .exec();
      if (!res) throw new Error('rate limiter transaction aborted');
      for (const [err] of res) if (err) throw err;
      const count = Number(res[2][1]);
      if (count <= limit) return { allowed: true, retryAfterMs: 0 };
      const oldest = Number((res[3][1] as string[])[1] ?? t);
      return { allowed: false, retryAfterMs: Math.max(0, oldest + windowMs - t) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/** The part of an ioredis client the limiter uses. */
export interface RedisLike {
  multi(): {
    zremrangebyscore(k: string, min: number, max: number): ReturnType<RedisLike['multi']>;
    zadd(k: string, score: number, member: string): ReturnType<RedisLike['multi']>;
    zcard(k: string): ReturnType<RedisLike['multi']>;
    zrange(k: string, start: number, stop: number, withScores: 'WITHSCORES'): ReturnType<RedisLike['multi']>;
    pexpire(k: string, ms: number): ReturnType<RedisLike['multi']>;
    exec(): Promise<[Error | null, unknown][] | null>;
  };
  del(k: string): Promise<number>;
}
