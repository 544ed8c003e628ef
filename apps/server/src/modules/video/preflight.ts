/**
 * Upload preflight (issue 13.4): the cheap checks of `POST /video/upload`, run before a byte of the body is read —
 * account (the route's guard), queue limit, coins for the shortest video, the declared size against the plan, and
 * UPLOADS_PER_USER (default 1) uploads at a time per account (in this process). A refusal answers at once; nothing reaches DATA_DIR/tmp.
 */
import { companyUploadCost, uploadCost } from '@mocap/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Codes, Messages } from '../../errors.ts';
import { userOf } from '../../http/context.ts';
import { PLAN_LIMITS, UploadMessages } from './limits.ts';

/** Multipart framing and text fields around the file (fields are capped at 30 × 16 KiB by the parser). */
export const MULTIPART_OVERHEAD_BYTES = 512 * 1024;
/** Ours (the spec is silent). */
export const PreflightMessages = {
  BUSY: 'another upload of yours is still being received: wait until it finishes',
} as const;

const inFlight = new Map<number, number>();

/** Uploads of `userId` being received now (tests). */
export const uploadsInFlight = (userId: number) => inFlight.get(userId) ?? 0;

/** preHandler after `requireUser`: refuses before the body is read; holds the account's upload slot until the answer. */
export async function uploadPreflight(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const u = userOf(req);
  const { videos, coins } = req.server.ctx.services;
  const declared = Number(req.headers['content-length']);
  const maxBytes = videos.maxUploadBytes(u);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD_BYTES)
    throw new AppError(Codes.REFUSED, UploadMessages.tooLarge(PLAN_LIMITS[videos.planOf(u)].sizeMB), {
      declaredBytes: declared,
      maxBytes,
    });
  await videos.checkQueue(u);
  const company = u.type === 2;
  const currency = company ? 'CV' : 'V';
  const cheapest = company ? companyUploadCost(1) : uploadCost(1);
  const balance = await coins.balance(u.id, currency);
  if (balance < cheapest)
    throw new AppError(Codes.REFUSED, company ? '你的CV币余额不足,无法制作视频' : Messages.INSUFFICIENT_V, {
      balance,
      required: cheapest,
    });
  const n = inFlight.get(u.id) ?? 0;
  if (n >= req.server.ctx.config.UPLOADS_PER_USER) throw new AppError(Codes.REFUSED, PreflightMessages.BUSY);
  inFlight.set(u.id, n + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (inFlight.get(u.id) ?? 1) - 1;
    if (left > 0) inFlight.set(u.id, left);
    else inFlight.delete(u.id);
  };
  reply.raw.once('close', release);
  reply.raw.once('finish', release);
  req.raw.once('aborted', release);
}
