// @vitest-environment happy-dom
/** Issue 15 on the web: the download dialog's lists and words (15.4). */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DownloadDialog } from '../src/components/DownloadDialog.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import { normaliseVideo } from '../src/lib/types.ts';
import { fakeServer, makeUser, ok, renderAt, setTokenCookie } from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const made = (over: Record<string, unknown> = {}) =>
  normaliseVideo(
    {
      id: 9,
      name: 'Dance',
      status: 2,
      duration: 5,
      boneType: 'Mixamo',
      creatorId: 1,
      freeRemakes: 1,
      ...over,
    },
    makeUser(),
  );

describe('15.4 download dialog', () => {
  it('lists every bone type as upload and remake do; OnlyFace without a face capture says why', async () => {
    setLangForTests('en');
    setTokenCookie('t');
    fakeServer({
      'GET /motion/boneTypes': () => ok([]),
      'GET /motion/video/9': () =>
        ok({
          zips: [
            { boneType: 'Mixamo', format: 'fbx', allowed: true },
            { boneType: 'bvh', format: 'bvh', allowed: false },
          ],
        }),
    });
    renderAt(
      '/x',
      [{ path: '/x', element: <DownloadDialog video={made()} onClose={() => undefined} /> }],
      makeUser(),
    );
    const face = await screen.findByText('OnlyFace');
    await waitFor(() => expect(face.closest('button')?.getAttribute('data-missing')).toBe('1'));
    expect(face.closest('button')?.textContent).toContain('Needs face capture');
    expect(face.closest('button')?.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Mixamo').closest('button')?.textContent).toContain('Free');
    expect(screen.getByText('bvh').closest('button')?.textContent).toContain('VIP');
    expect(screen.getByTestId('download-terms').textContent).toBe('Your own capture: downloads are free');
  });

  it('after paying for a square video the dialog says it was bought, not that it is mine', async () => {
    setLangForTests('en');
    setTokenCookie('t');
    fakeServer({
      'GET /motion/boneTypes': () => ok([]),
      'GET /motion/video/9': () => ok({ zips: [{ boneType: 'Mixamo', format: 'fbx', allowed: true }] }),
      'GET /motion/preMotionDownload/9': () =>
        ok({
          id: 9,
          duration: 5,
          price: 5,
          due: 0,
          owned: false,
          purchased: true,
          balance: 45,
          enough: true,
        }),
    });
    renderAt(
      '/x',
      [{ path: '/x', element: <DownloadDialog video={made({ creatorId: 2 })} onClose={() => undefined} /> }],
      makeUser(),
    );
    await waitFor(() =>
      expect(screen.getByTestId('download-terms').textContent).toBe(
        'You bought this video: downloads are free',
      ),
    );
    fireEvent.click(screen.getByText('Mixamo'));
  });
});
