/**
 * The compiled response serializer (`src/http/serializer.ts`) writes the same JSON as zod's encode +
 * JSON.stringify (the serializer it replaces) for responses that match their schema: schema key order, unknown
 * keys dropped at every depth, undefined optionals left out. Schemas it cannot compile keep zod's serializer,
 * and outside production a response that does not match its schema is still refused.
 */

import { VideoDetailSchema, VideoPage } from '@mocap/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope } from '../src/http/envelope.ts';
import { UserViewSchema } from '../src/http/schemas.ts';
import { compileProjector, createSerializerCompiler } from '../src/http/serializer.ts';

const zodJson = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

function serializer(schema: z.ZodType, validate: boolean) {
  const compile = createSerializerCompiler({ validate });
  return compile({ schema, method: 'GET', url: '/t', httpStatus: '200' } as never);
}

/** Same keys in reverse order, plus keys the schema does not know. */
function shuffled<T extends Record<string, unknown>>(o: T, extra: Record<string, unknown>): T {
  return Object.fromEntries([...Object.entries(extra), ...Object.entries(o).reverse()]) as T;
}

function video(id: number) {
  const v = {
    id,
    name: `clip ${id}`,
    titleInSquare: id % 2 ? null : 'square title "quoted"',
    path: `/product/files?token=abc${id}`,
    thumbnail: null,
    md5: 'f'.repeat(32),
    captureType: 'body',
    boneType: 'BoyFBX',
    format: 'fbx',
    serialNumber: `B${id}`,
    duration: 8.5,
    createAt: 1_795_330_747_621 + id,
    description: 'line\nbreak \u2028 and unicode 动作',
    status: 2,
    statusName: 'made',
    progress: 100,
    error: null,
    creatorId: 7,
    creatorName: 'admin',
    inSquare: 1,
    repairCount: 0,
    downloadCount: 3,
    collectCount: 1,
    category: id % 3 ? 4 : null,
    tags: ['a', 'b,c'],
    width: 1280,
    height: 720,
    fps: 29.97,
    size: 1_000_000,
    remakeCount: 0,
    freeRemakes: 1,
    price: 9,
    solveOptions: id % 2 ? null : { smoothing: 0.5, footLock: 'auto', rootAtOrigin: false, height: 1.72 },
    judgement:
      id % 2
        ? null
        : {
            confidence: 0.74,
            ranges: [{ from: 0.83, to: 1.17, confidence: 0.19, reasons: ['jump', 'pose'] }],
            unusable: false,
            refundedCoins: 0,
            judgeRemakes: 1,
          },
  };
  return shuffled(v, { storagePrefix: 'videos/secret', outputs: { thumbKey: 'x' }, userId: 7 });
}

describe('compiled response serializer', () => {
  it('writes what zod encode + JSON.stringify wrote: key order, unknown keys dropped at every depth', () => {
    const schema = envelope(VideoPage);
    const data = {
      internal: 'dropped',
      data: { size: 20, page: 1, total: 3, list: [video(1), video(2), video(3)], cursor: 'dropped' },
      message: 'success',
      code: 0,
    };
    const fast = serializer(schema, false)(data);
    expect(fast).toBe(zodJson(schema, data));
    expect(fast.startsWith('{"code":0,"message":"success","data":{"list":[{"id":1,"name":"clip 1"')).toBe(
      true,
    );
    expect(fast).not.toContain('storagePrefix');
    expect(fast).not.toContain('cursor');
    expect(serializer(schema, true)(data)).toBe(fast);
  });

  it('optional keys: left out when undefined, kept when null or set; nested objects and arrays copied', () => {
    const schema = z.object({
      a: z.string().optional(),
      b: z.number().nullable().optional(),
      c: z.array(z.object({ x: z.number(), y: z.array(z.string()).optional() })),
      d: z.union([z.string(), z.number()]),
      e: z.record(z.string(), z.number()),
      f: z.enum(['one', 'two']),
      g: z.literal(1),
      h: z.unknown(),
      i: z.boolean(),
    });
    const samples = [
      { a: undefined, b: null, c: [], d: 'x', e: {}, f: 'one', g: 1, h: { any: ['thing'] }, i: true },
      {
        b: 2,
        c: [
          { x: 1, z: 'dropped' },
          { y: ['q'], x: 2 },
        ],
        d: 3,
        e: { k: 1 },
        f: 'two',
        g: 1,
        h: 5,
        i: false,
      },
      {
        a: 's',
        c: [{ x: 0, y: undefined }],
        d: 'y',
        e: { k: 2, j: 3 },
        f: 'one',
        g: 1,
        h: null,
        i: true,
        zz: 1,
      },
    ];
    const s = serializer(schema, true);
    for (const d of samples) expect(s(d)).toBe(zodJson(schema, d));
  });

  it('the user view and the video detail (booleans, literals, nullable numbers) match zod', () => {
    const user = {
      id: 1,
      email: 'a@b.c',
      username: 'a',
      type: 1,
      roles: ['user'],
      surplus: 50,
      cvCoin: 0,
      level: 'free',
      vexpiredAt: null,
      phone: null,
      contact: null,
      company: null,
      address: null,
      ip: '127.0.0.1',
      enabled: true,
      testFlag: false,
      blackFlag: false,
      extensionStaff: false,
      beta: false,
      inviteCode: 'ABC',
      referralCount: 0,
      uploadCount: 2,
      isPursh: 0,
      teachingConfirmed: false,
      emailNotice: true,
      lastLoginAt: 1,
      createdAt: 2,
    };
    const withSecret = shuffled(user, { passwordHash: '$argon2id$...' });
    expect(serializer(UserViewSchema, true)(withSecret)).toBe(zodJson(UserViewSchema, withSecret));
    expect(serializer(UserViewSchema, true)(withSecret)).not.toContain('argon2');
    const detail = { ...video(5), collected: true, position: null };
    expect(serializer(VideoDetailSchema, true)(detail)).toBe(zodJson(VideoDetailSchema, detail));
  });

  it('schemas it cannot copy (lazy, transforms, defaults, unions of objects, loose objects) keep zod', () => {
    type Node = { id: number; children: Node[] };
    const tree: z.ZodType<Node> = z.lazy(() => z.object({ id: z.number(), children: z.array(tree) }));
    const unsupported = [
      tree,
      z.object({ a: z.string().transform((s) => s.toUpperCase()) }),
      z.object({ a: z.number().default(1) }),
      z.union([z.object({ a: z.number() }), z.object({ b: z.number() })]),
      z.looseObject({ a: z.number() }),
      z.object({ r: z.record(z.string(), z.object({ a: z.number() })) }),
    ];
    for (const s of unsupported) expect(compileProjector(s)).toBeUndefined();
    // zod's serializer still runs for them: the tree's unknown keys are dropped as before.
    const data = { id: 1, extra: true, children: [{ id: 2, children: [], secret: 'x' }] };
    expect(serializer(tree, false)(data)).toBe('{"id":1,"children":[{"id":2,"children":[]}]}');
    expect(compileProjector(envelope(VideoPage))).toBeDefined();
  });

  it('outside production a response that does not match its schema is refused (500 by the error handler)', () => {
    const schema = envelope(z.object({ n: z.number().int() }));
    const bad = { code: 0, message: 'success', data: { n: 'not a number' } };
    expect(() => serializer(schema, true)(bad)).toThrow(/doesn't match the schema/);
    // Production trusts the typed handlers and only shapes the JSON.
    expect(serializer(schema, false)(bad)).toBe('{"code":0,"message":"success","data":{"n":"not a number"}}');
  });
});
