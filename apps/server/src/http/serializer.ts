/**
 * Response serialisation from the routes' zod schemas, without running zod on every response.
 *
 * `fastify-type-provider-zod`'s serializer encodes each response with zod (a full validation pass that copies
 * every object) and then calls `JSON.stringify`. For a page of 20 projects that validation costs more than the
 * stringify itself. Handlers are already typed against these schemas (the zod type provider), so in production
 * the compiled serializer only does what changes the bytes: it copies each object with the keys its schema
 * declares, in the schema's order (unknown keys are dropped, exactly as zod's default `strip` objects do), and
 * leaves everything else to `JSON.stringify`. The output is the same JSON as zod's encode + stringify for any
 * response that matches its schema.
 *
 * Schemas with parts whose encoding is not a plain copy (transforms, pipes/codecs, defaults, lazy, unions of
 * objects, passthrough or catch-all objects, ...) keep zod's serializer. Outside production (tests, dev), every
 * response is still validated with zod, and a mismatch is the same `ResponseSerializationError` as before.
 */
import type { FastifySerializerCompiler } from 'fastify';
import {
  ResponseSerializationError,
  serializerCompiler as zodSerializerCompiler,
} from 'fastify-type-provider-zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

/** Copies a value into the shape its schema serialises (`null`: the value is serialised as it is). */
type Projector = ((v: unknown) => unknown) | null;

class Unsupported extends Error {}

interface Def {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  options?: $ZodType[];
  valueType?: $ZodType;
}

const defOf = (s: $ZodType): Def => s._zod.def as unknown as Def;

/** Types serialised as they are by zod's encode (no copy, no change). */
const AS_IS = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'null',
  'undefined',
  'literal',
  'enum',
  'unknown',
  'any',
  'bigint',
  'date',
  'nan',
  'template_literal',
]);

function projector(schema: $ZodType, depth = 0): Projector {
  if (depth > 64) throw new Unsupported('schema too deep');
  const def = defOf(schema);
  if (AS_IS.has(def.type)) return null;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'readonly': {
      const inner = projector(def.innerType!, depth + 1);
      return inner && ((v) => (v === null || v === undefined ? v : inner(v)));
    }
    case 'array': {
      const el = projector(def.element!, depth + 1);
      return el && ((v) => (Array.isArray(v) ? v.map(el) : v));
    }
    case 'union':
    case 'record': {
      // As they are only when nothing inside needs a copy (an object inside could carry unknown keys).
      const parts = def.type === 'union' ? def.options! : [def.valueType!];
      for (const p of parts) if (projector(p, depth + 1) !== null) throw new Unsupported(def.type);
      return null;
    }
    case 'object': {
      if (def.catchall !== undefined) throw new Unsupported('object with catchall');
      const keys = Object.keys(def.shape!);
      const props = keys.map((k) => projector(def.shape![k]!, depth + 1));
      return (v) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
        const src = v as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const x = src[k];
          if (x === undefined) continue;
          const p = props[i];
          out[k] = p ? p(x) : x;
        }
        return out;
      };
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** The projector of a response schema, or undefined when zod must keep encoding it. */
export function compileProjector(schema: $ZodType): { project: Projector } | undefined {
  try {
    return { project: projector(schema) };
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

/**
 * The app's serializer compiler: the compiled projection + `JSON.stringify` where the schema allows it, zod's
 * serializer otherwise. `validate` (everywhere but production) also checks each response against its schema.
 */
export function createSerializerCompiler(opts: { validate: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const schema = route.schema as unknown;
    if (!(schema instanceof $ZodType)) return zodSerializerCompiler(route as never);
    const compiled = compileProjector(schema);
    if (!compiled) return zodSerializerCompiler(route as never);
    const { project } = compiled;
    const { method, url } = route;
    return (data: unknown) => {
      if (opts.validate) {
        const r = safeEncode(schema, data);
        if (r.error) throw new ResponseSerializationError(method, url, { cause: r.error });
      }
      return JSON.stringify(project ? project(data) : data);
    };
  };
}
