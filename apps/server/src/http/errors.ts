/**
 * The one error handler: AppError → its code; schema validation → 400 with the issues; Fastify's own errors
 * (bad JSON, body too large, wrong content type) → their nearest catalogue code; anything else → 500, logged
 * with the request id (never the body: passwords and codes travel there).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, Codes, DefaultMessages, httpStatusOf } from '../errors.ts';

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (err instanceof AppError) {
      if (err.code === Codes.INTERNAL || err.code === Codes.BUSY) req.log.error({ err }, 'request failed');
      return reply
        .status(httpStatusOf(err.code))
        .send({ code: err.code, message: err.message, data: err.data });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: `${(err as FastifyError).validationContext ?? ''}${v.instancePath}`,
        message: v.message ?? 'invalid',
      }));
      const first = issues[0];
      return reply.status(400).send({
        code: Codes.PARAMETER_ERROR,
        message: first
          ? `parameter error: ${first.path || 'request'} ${first.message}`
          : DefaultMessages[400],
        data: { issues },
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return reply.status(500).send({ code: Codes.INTERNAL, message: DefaultMessages[500], data: null });
    }
    const status = (err as FastifyError).statusCode;
    if (status === 413)
      return reply.status(413).send({ code: Codes.REFUSED, message: 'request body too large', data: null });
    if (status === 415)
      return reply
        .status(415)
        .send({ code: Codes.PARAMETER_ERROR, message: 'unsupported content type', data: null });
    if (status === 429)
      return reply
        .status(429)
        .send({ code: Codes.TOO_MANY_REQUESTS, message: DefaultMessages[1047], data: null });
    if (status && status >= 400 && status < 500)
      return reply
        .status(status)
        .send({ code: Codes.PARAMETER_ERROR, message: err.message || DefaultMessages[400], data: null });
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: Codes.INTERNAL, message: DefaultMessages[500], data: null });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({
      code: Codes.NOT_FOUND,
      message: `${DefaultMessages[404]}: ${req.method} ${req.url.split('?')[0]}`,
      data: null,
    });
  });
}
