// @vitest-environment happy-dom
/**
 * Motion (solve) options in the upload form and the remake dialog: shown folded with a summary, edited, the
 * height checked in centimetres before anything is sent, sent to the server in metres under the API's names,
 * and a remake starting from the options the video was solved with.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemakeDialog } from '../src/components/VideoDialogs.tsx';
import { setLangForTests } from '../src/lib/i18n.ts';
import { checkSolveOptions, formOf, toApi } from '../src/lib/solveOptions.ts';

import * as validation from '../src/lib/uploadValidation.ts';
import { UploadPage } from '../src/pages/Upload.tsx';
import {
  fakeServer,
  madeVideo,
  makeUser,
  ok,
  remakeServer,
  renderAt,
  setTokenCookie,
  stubObjectUrls,
} from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('solve options (pure)', () => {
  it('height in centimetres: empty is "as measured", out of range is refused, sent in metres', () => {
    const base = formOf(null);
    expect(base).toEqual({ smoothing: 0.5, footLock: 'auto', rootAtOrigin: false, heightCm: '' });
    expect(checkSolveOptions(base)).toBeNull();
    expect(toApi(base).height).toBeNull();
    expect(checkSolveOptions({ ...base, heightCm: '30' })?.key).toBe('solve.heightRange');
    expect(checkSolveOptions({ ...base, heightCm: '1.75' })?.key).toBe('solve.heightRange');
    expect(checkSolveOptions({ ...base, heightCm: 'tall' })?.key).toBe('solve.heightRange');
    expect(toApi({ ...base, heightCm: '182' }).height).toBe(1.82);
    expect(formOf({ smoothing: 0.2, footLock: 'never', rootAtOrigin: true, height: 1.64 }).heightCm).toBe(
      '164',
    );
  });
});

describe('upload form', () => {
  const MB = 1024 * 1024;
  const mp4 = () => {
    const f = new File([new Uint8Array(8)], 'walk.mp4', { type: 'video/mp4', lastModified: 3 });
    Object.defineProperty(f, 'size', { value: 2 * MB });
    return f;
  };

  for (const lang of ['en', 'zh'] as const) {
    it(`offers the options (${lang}); a bad height blocks the upload; the chosen ones are sent`, async () => {
      setLangForTests(lang);
      const sent: FormData[] = [];
      fakeServer({
        'POST /category/search': () => ok([{ id: 3, name: 'Dance', sort: 1, children: [] }]),
        'POST /tag/search': () => ok([]),
        'GET /motion/boneTypes': () => ok([]),
        'GET /video/getLastModelType': () => ok(''),
      });
      // The upload goes through XHR (progress): capture its form.
      class FakeXhr {
        upload = { onprogress: null as unknown };
        status = 200;
        responseText = JSON.stringify(ok({ id: 5, name: 'walk', status: 0 }));
        onload: (() => void) | null = null;
        onerror: (() => void) | null = null;
        onabort: (() => void) | null = null;
        ontimeout: (() => void) | null = null;
        timeout = 0;
        open() {}
        setRequestHeader() {}
        getResponseHeader() {
          return 'application/json';
        }
        addEventListener(type: string, fn: () => void) {
          if (type === 'load') this.onload = fn;
        }
        abort() {}
        send(body: FormData) {
          sent.push(body);
          queueMicrotask(() => this.onload?.());
        }
      }
      vi.stubGlobal('XMLHttpRequest', FakeXhr);
      vi.spyOn(validation, 'readDuration').mockResolvedValue(4);
      stubObjectUrls();
      setTokenCookie('t');
      renderAt(
        '/index/uploadPc',
        [{ path: '/index/uploadPc', element: <UploadPage /> }],
        makeUser({ surplus: 50, level: 'free' }, 0),
      );
      fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [mp4()], types: ['Files'] } });
      await screen.findByDisplayValue('walk');
      fireEvent.change(document.querySelector('select[name="category"]')!, { target: { value: '3' } });

      const panel = screen.getByTestId('solve-options');
      // Folded, with the defaults summarised.
      expect(panel.hasAttribute('open')).toBe(false);
      const summary = panel.querySelector('summary')!.textContent!;
      expect(summary).toContain(lang === 'en' ? 'Motion options' : '动作选项');
      expect(summary).toContain(lang === 'en' ? 'height as measured' : '身高自动测量');
      const inPanel = within(panel);
      fireEvent.change(panel.querySelector('input[name="smoothing"]')!, { target: { value: '0.8' } });
      fireEvent.change(panel.querySelector('select[name="footLock"]')!, { target: { value: 'grounding' } });
      fireEvent.click(panel.querySelector('input[name="rootAtOrigin"]')!);
      fireEvent.change(panel.querySelector('input[name="height"]')!, { target: { value: '17' } });
      const rangeText =
        lang === 'en' ? 'The height must be between 50 and 300 cm' : '身高须在 50 到 300 厘米之间';
      expect(inPanel.getByText(rangeText)).toBeTruthy();
      fireEvent.click(screen.getByTestId('upload-submit'));
      expect((await screen.findAllByText(rangeText)).length).toBeGreaterThan(1); // field + toast
      expect(sent).toHaveLength(0);

      fireEvent.change(panel.querySelector('input[name="height"]')!, { target: { value: '176' } });
      expect(inPanel.queryByText(rangeText)).toBeNull();
      expect(panel.querySelector('summary')!.textContent).toContain(
        lang === 'en' ? '176 cm tall' : '身高 176 厘米',
      );
      fireEvent.click(screen.getByTestId('upload-submit'));
      fireEvent.click(await screen.findByText(lang === 'en' ? 'Pay and upload' : '支付并上传'));
      await waitFor(() => expect(sent).toHaveLength(1));
      const form = sent[0]!;
      expect(form.get('smoothing')).toBe('0.8');
      expect(form.get('footLock')).toBe('grounding');
      expect(form.get('rootAtOrigin')).toBe('true');
      expect(form.get('height')).toBe('1.76');
    });
  }
});

describe('remake dialog', () => {
  it('starts from the options the video was solved with and sends the changed ones', async () => {
    setLangForTests('en');
    const bodies = remakeServer(() => ok({ id: 9, charged: 0 }));
    const video = madeVideo('BoyFBX', {
      solveOptions: { smoothing: 0.3, footLock: 'always', rootAtOrigin: true, height: 1.64 },
    });
    const done = vi.fn();
    renderAt(
      '/x',
      [{ path: '/x', element: <RemakeDialog video={video} onClose={() => undefined} onDone={done} /> }],
      makeUser(),
    );
    const panel = await screen.findByTestId('remake-solve-options');
    expect(panel.hasAttribute('open')).toBe(true);
    expect((panel.querySelector('input[name="smoothing"]') as HTMLInputElement).value).toBe('0.3');
    expect((panel.querySelector('select[name="footLock"]') as HTMLSelectElement).value).toBe('always');
    expect((panel.querySelector('input[name="rootAtOrigin"]') as HTMLInputElement).checked).toBe(true);
    expect((panel.querySelector('input[name="height"]') as HTMLInputElement).value).toBe('164');
    // Height cleared: measured from the video again.
    fireEvent.change(panel.querySelector('input[name="height"]')!, { target: { value: '' } });
    fireEvent.click(screen.getByText('Use a free remake'));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(bodies).toEqual([
      { id: 9, boneType: 'BoyFBX', smoothing: 0.3, footLock: 'always', rootAtOrigin: true, height: null },
    ]);
  });
});
