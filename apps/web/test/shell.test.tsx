// @vitest-environment happy-dom
/**
 * Issue 25, "downloads use signed URLs, optionally converted to webp": a notice whose picture is an upload
 * (uploadZM/<id>.<ext>) is shown through GET /file/url as a webp of the slide's size; a video upload is signed as
 * it is; any other URL is used as given, without a call.
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NoticeCarousel } from '../src/components/NoticeCarousel.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import type { Notice } from '../src/lib/types.ts';
import { fakeServer, ok } from './helpers.tsx';

setLangForTests('en');
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const KEY = 'uploadZM/0123456789abcdef0123456789abcdef.png';
const notice = (url: string, isVideo = false): Notice => ({
  id: '1',
  page: 1,
  link: '',
  button: '',
  url,
  isVideo,
  title: 'New feature',
  content: '',
});

describe('notice pictures from uploads', () => {
  it('an uploaded picture is signed as webp of the slide size', async () => {
    const srv = fakeServer({ 'GET /file/url': () => ok({ url: '/product/files?token=signed-webp' }) });
    const { container } = render(<NoticeCarousel notices={[notice(KEY)]} onClose={() => undefined} />);
    await waitFor(() =>
      expect(container.querySelector('img')?.getAttribute('src')).toBe('/product/files?token=signed-webp'),
    );
    const call = srv.fetchMock.mock.calls
      .map((c) => new URL(String(c[0]), 'http://x'))
      .find((u) => u.pathname === '/product/file/url')!;
    expect(Object.fromEntries(call.searchParams)).toEqual({ key: KEY, format: 'webp', maxSide: '1892' });
  });

  it('a video upload is signed as it is; other URLs are used as given', async () => {
    const video = KEY.replace('.png', '.mp4');
    const srv = fakeServer({ 'GET /file/url': () => ok({ url: '/product/files?token=signed-mp4' }) });
    const { container, unmount } = render(
      <NoticeCarousel notices={[notice(`/${video}`, true)]} onClose={() => undefined} />,
    );
    await waitFor(() =>
      expect(container.querySelector('video')?.getAttribute('src')).toBe('/product/files?token=signed-mp4'),
    );
    const u = new URL(String(srv.fetchMock.mock.calls[0]![0]), 'http://x');
    expect(Object.fromEntries(u.searchParams)).toEqual({ key: video });
    unmount();
    srv.fetchMock.mockClear();
    const plain = render(
      <NoticeCarousel notices={[notice('https://cdn.example.com/a.png')]} onClose={() => undefined} />,
    );
    expect(plain.container.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/a.png');
    expect(srv.fetchMock).not.toHaveBeenCalled();
  });
});
