// @vitest-environment happy-dom
/** Issue 15 on the web: download dialog lists and words (15.4), duplicate file before confirm (15.5), admin role badge (15.6). */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DownloadDialog } from '../src/components/DownloadDialog.tsx';
import { PreviewPlayer } from '../src/components/Preview.tsx';
import { TopBar } from '../src/components/TopBar.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import { normaliseVideo } from '../src/lib/types.ts';
import * as validation from '../src/lib/uploadValidation.ts';
import { UploadPage } from '../src/pages/Upload.tsx';
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

describe('15.5 a file uploaded before is refused when it is chosen, before any confirm step', () => {
  it('asks the server by MD5 and says so plainly', async () => {
    setLangForTests('en');
    setTokenCookie('t');
    const srv = fakeServer({
      'POST /category/search': () => ok([]),
      'POST /tag/search': () => ok([]),
      'GET /motion/boneTypes': () => ok([]),
      'GET /video/getLastModelType': () => ok(''),
      'POST /video/checkMd5': () => ok({ duplicate: true, id: 7, name: 'Morning run' }),
    });
    vi.spyOn(validation, 'readDuration').mockResolvedValue(5);
    renderAt(
      '/index/uploadPc',
      [{ path: '/index/uploadPc', element: <UploadPage /> }],
      makeUser({ surplus: 50 }, 0),
    );
    const file = new File([new Uint8Array([1, 2, 3, 4])], 'run.mp4', { type: 'video/mp4' });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [file], types: ['Files'] } });
    expect(
      (await screen.findAllByText('You already uploaded this file (“Morning run”): choose another video'))
        .length,
    ).toBeGreaterThan(0);
    const call = srv.calls.find((c) => c.path === '/video/checkMd5');
    expect((call?.body as { md5?: string } | undefined)?.md5).toBe('08d6c05a21512a79a1dfeb9d2a8f262f');
    expect(screen.getByTestId('dropzone')).toBeTruthy();
    expect(screen.queryByText('Confirm upload')).toBeNull();
  });
});

describe('15.6 the administrator’s top bar shows the role, not a free plan', () => {
  for (const [lang, role, free] of [
    ['en', 'Administrator', 'Free'],
    ['zh', '管理员', '免费版'],
  ] as const)
    it(`admin vs free user (${lang})`, async () => {
      setLangForTests(lang);
      setTokenCookie('t');
      fakeServer({});
      const admin = makeUser({ admin: true });
      const view = renderAt('/x', [{ path: '/x', element: <TopBar title="x" maintain={null} /> }], admin);
      expect((await screen.findByTestId('role-badge')).textContent).toBe(role);
      expect(screen.queryByTestId('plan-link')).toBeNull();
      expect(screen.queryByText(free)).toBeNull();
      view.unmount();
      renderAt('/x', [{ path: '/x', element: <TopBar title="x" maintain={null} /> }], makeUser());
      expect((await screen.findByTestId('plan-link')).textContent).toBe(free);
      expect(screen.queryByTestId('role-badge')).toBeNull();
    });
});

describe('15.3 the capture’s warnings about its result are shown in the preview (owner)', () => {
  it('lists them under the player', async () => {
    setLangForTests('en');
    setTokenCookie('t');
    fakeServer({
      'GET /motion/video/9': () =>
        ok({ zips: [], warnings: ['2.0–2.4 s: the tracked body jumps (another person or a tracking swap)'] }),
      'GET /motion/video/9/clip_url': () => ({ code: 307, message: 'x' }),
      'GET /motion/fbx/9/anm': () => ({ code: 307, message: 'x' }),
    });
    renderAt('/x', [{ path: '/x', element: <PreviewPlayer video={made()} /> }], makeUser());
    const box = await screen.findByTestId('preview-warnings');
    expect(box.textContent).toContain('The capture flagged parts of this result:');
    expect(box.textContent).toContain('2.0–2.4 s: the tracked body jumps');
  });
});
