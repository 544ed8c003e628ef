/**
 * Upload checks done in the page before any byte is sent (spec §5 Upload, §9). Each returns the i18n key of
 * the spec's message (with its variables) or null.
 */
import { isFbxType } from './bonetypes.ts';
import { PLAN_LIMITS, type Plan, TITLE_MAX } from './plans.ts';

export interface Problem {
  key: string;
  vars?: Record<string, string | number>;
}

const MB = 1024 * 1024;

export function isMp4(file: { name: string; type: string }): boolean {
  const ext = /\.mp4$/i.test(file.name);
  return ext && (file.type === '' || file.type === 'video/mp4' || file.type === 'application/mp4');
}

/** Checks of a chosen file list against the current selection (before reading the duration). */
export function checkFiles(
  files: readonly File[],
  selected: readonly File[],
  plan: Plan,
): { file: File | null; problem: Problem | null } {
  if (files.length === 0) return { file: null, problem: null };
  if (files.length > 1 || selected.length >= 1) {
    const f = files[0];
    if (
      files.length === 1 &&
      selected.some((s) => s.name === f.name && s.size === f.size && s.lastModified === f.lastModified)
    )
      return { file: null, problem: { key: 'upload.duplicate' } };
    return { file: null, problem: { key: 'upload.onlyOne' } };
  }
  const file = files[0];
  if (!isMp4(file)) return { file: null, problem: { key: 'upload.badFormat' } };
  const limit = PLAN_LIMITS[plan].uploadCheckMb;
  if (file.size > limit * MB) return { file: null, problem: { key: 'upload.tooLarge', vars: { n: limit } } };
  if (file.size === 0) return { file: null, problem: { key: 'upload.badFormat' } };
  return { file, problem: null };
}

export function checkDuration(seconds: number, plan: Plan): Problem | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return { key: 'upload.unreadable' };
  const max = PLAN_LIMITS[plan].durationSec;
  return seconds > max + 1e-3 ? { key: 'upload.tooLong', vars: { n: max } } : null;
}

export function checkTitle(title: string): Problem | null {
  const t = title.trim();
  if (!t) return { key: 'upload.titleRequired' };
  if ([...t].length > TITLE_MAX) return { key: 'upload.titleTooLong', vars: { n: TITLE_MAX } };
  return null;
}

export function checkTag(tag: string): Problem | null {
  return /[,，]/.test(tag) ? { key: 'upload.tagComma' } : null;
}

export function checkCategoryTag(category: string | number | null | undefined, tags: readonly string[]) {
  const hasCategory = category !== null && category !== undefined && String(category) !== '';
  if (!hasCategory && tags.length === 0) return { key: 'upload.categoryOrTag' };
  for (const t of tags) {
    const p = checkTag(t);
    if (p) return p;
  }
  return null;
}

export function checkBoneType(boneType: string, plan: Plan): Problem | null {
  if (!boneType) return { key: 'upload.chooseBoneType' };
  return plan === 'free' && !isFbxType(boneType) ? { key: 'upload.freeFbxOnly' } : null;
}

export function checkCoins(cost: number, balance: number): Problem | null {
  return balance < cost ? { key: 'coins.insufficient' } : null;
}

/** Reads a video file's duration with a <video> element (seconds); rejects when the browser can't. */
export function readDuration(file: File, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const v = document.createElement('video');
    v.preload = 'metadata';
    v.muted = true;
    const done = (fn: () => void) => {
      clearTimeout(timer);
      v.removeAttribute('src');
      v.load();
      URL.revokeObjectURL(url);
      fn();
    };
    const timer = setTimeout(() => done(() => reject(new Error('timeout'))), timeoutMs);
    v.onloadedmetadata = () => {
      const d = v.duration;
      done(() => (Number.isFinite(d) && d > 0 ? resolve(d) : reject(new Error('no duration'))));
    };
    v.onerror = () => done(() => reject(new Error('unreadable')));
    v.src = url;
  });
}
