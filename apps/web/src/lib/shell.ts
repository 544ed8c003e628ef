/**
 * The shell's calls of issue 25: the community panel's settings, the first-use tour's confirmation
 * (POST /user/teaching/getConfirmationTeaching and setConfirmationTeaching) and page-view analytics
 * (POST /pageView/addBehavior and addDigitalHumanBehavior; silent: analytics never bother the user).
 */
import type { Community } from '@mocap/contracts';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { api } from './api.ts';

export type { Community, CommunityGroup } from '@mocap/contracts';

let communityCache: Promise<Community | null> | null = null;
/** The community panel's settings, loaded once per page load. */
export function getCommunity(): Promise<Community | null> {
  communityCache ??= api.get<Community>('/sysConfig/community', { silent: true }).catch(() => null);
  return communityCache;
}

export const getTeachingConfirmed = async (): Promise<boolean> =>
  !!(await api.post<unknown>('/user/teaching/getConfirmationTeaching', {}, { silent: true }));
export const setTeachingConfirmed = (confirmed = true) =>
  api.post<unknown>('/user/teaching/setConfirmationTeaching', { confirmed }, { silent: true });

/** Counts a page view (no action) or an action on the current page. */
export function addBehavior(page: string, action?: string): void {
  void api
    .post<unknown>('/pageView/addBehavior', action ? { page, action } : { page }, { silent: true })
    .catch(() => undefined);
}
export function addDigitalHumanBehavior(page: string, action: string): void {
  void api
    .post<unknown>('/pageView/addDigitalHumanBehavior', { page, action }, { silent: true })
    .catch(() => undefined);
}

/**
 * Paths that only redirect (App.tsx): `/index/myPro` and `/index/upload` wait for the session before choosing the
 * PC or phone page, which can take longer than the half second below, so they are never counted.
 */
export const REDIRECT_PATHS = new Set(['/', '/index', '/index/myPro', '/index/upload', '/companyDetaile']);

/**
 * Counts a view of every page the app shows (the path only: never the query). A path counts once it stayed
 * half a second, and never a redirect on the way (/ → /index/myPro → /index/myProPc): one visit, one view.
 */
export function usePageViews(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const path = pathname.replace(/\/+$/, '') || '/';
    if (REDIRECT_PATHS.has(path)) return;
    const t = setTimeout(() => addBehavior(path), 500);
    return () => clearTimeout(t);
  }, [pathname]);
}

/** A key of the shared uploads (POST /file/upload): `uploadZM/<random id>.<ext>`, with or without a leading slash. */
const UPLOAD_KEY = /^\/?(uploadZM\/[0-9a-f]{32}\.(png|jpg|gif|webp|mp4))$/;

/**
 * The URL to show for a stored image or video: a shared upload's key is signed by GET /file/url — images converted
 * to webp at most `maxSide` pixels on their longer side —; any other URL is used as it is. null while signing.
 */
export function useStoredMedia(
  url: string,
  options: { video?: boolean; maxSide?: number } = {},
): string | null {
  const key = UPLOAD_KEY.exec(url.trim())?.[1];
  const [signed, setSigned] = useState<{ key: string; url: string } | null>(null);
  const { video, maxSide } = options;
  useEffect(() => {
    if (!key) return;
    let live = true;
    const image = !video && !key.endsWith('.mp4');
    api
      .get<{ url: string }>('/file/url', {
        silent: true,
        query: { key, ...(image ? { format: 'webp', ...(maxSide ? { maxSide } : {}) } : {}) },
      })
      .then((r) => live && setSigned({ key, url: r.url }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key, video, maxSide]);
  if (!key) return url;
  return signed?.key === key ? signed.url : null;
}
