// @vitest-environment happy-dom
/**
 * Issue 15 on the web: download dialog lists and words (15.4), duplicate file before confirm (15.5), admin role
 * badge (15.6), the capture's notes and judgement (15.3: card quality, timeline strip, warning, free remakes).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DownloadDialog } from '../src/components/DownloadDialog.tsx';
import { CardJudgement, ConfidenceStrip } from '../src/components/Judgement.tsx';
import { PreviewPlayer } from '../src/components/Preview.tsx';
import { TopBar } from '../src/components/TopBar.tsx';
import { titleKeyFor } from '../src/lib/guard.ts';
import { setLangForTests, t } from '../src/lib/i18n.ts';
import { orderGoodsName } from '../src/lib/pay.ts';

import * as validation from '../src/lib/uploadValidation.ts';
import { UploadPage } from '../src/pages/Upload.tsx';
import {
  fakeServer,
  madeVideo,
  makeUser,
  ok,
  renderAt,
  setTokenCookie,
  squareVideoRoutes,
} from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const made = (over: Record<string, unknown> = {}) => madeVideo('Mixamo', over);

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
    fakeServer(squareVideoRoutes({ due: 0, owned: false, purchased: true, balance: 45, enough: true }));
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

describe('15.3 the capture’s notes about its result are shown in the preview (owner), in the user’s language', () => {
  const server = () =>
    fakeServer({
      'GET /motion/video/9': () =>
        ok({ zips: [], warnings: ['floor raised by 4 cm to the feet', 'a sentence the web does not know'] }),
      'GET /motion/video/9/clip_url': () => ({ code: 307, message: 'x' }),
      'GET /motion/fbx/9/anm': () => ({ code: 307, message: 'x' }),
    });
  /** The preview of the made video on that server, logged in: its notes box. */
  const warningsOf = () => {
    setTokenCookie('t');
    server();
    renderAt('/x', [{ path: '/x', element: <PreviewPlayer video={made()} /> }], makeUser());
    return screen.findByTestId('preview-warnings');
  };
  it('en', async () => {
    setLangForTests('en');
    const box = await warningsOf();
    expect(box.textContent).toContain('Notes on how this result was made:');
    expect(box.textContent).toContain('floor raised by 4 cm to the feet');
  });
  it('zh: known sentences translated, an unknown one kept', async () => {
    setLangForTests('zh');
    const box = await warningsOf();
    expect(box.textContent).toContain('本结果的制作说明：');
    expect(box.textContent).toContain('地面抬高 4 厘米以贴合双脚');
    expect(box.textContent).not.toContain('floor raised');
    expect(box.textContent).toContain('a sentence the web does not know');
  });
});

describe('15.3 the judgement: card quality, timeline strip, warning with free remakes and the refund rule', () => {
  const judged = (over: Record<string, unknown> = {}) =>
    made({
      duration: 10,
      freeRemakes: 2,
      judgement: {
        confidence: 0.79,
        ranges: [
          { from: 0.8, to: 1.2, confidence: 0.1, reasons: ['jump'] },
          { from: 5, to: 7.5, confidence: 0.3, reasons: ['gap', 'pose'] },
        ],
        unusable: false,
        refundedCoins: 0,
        judgeRemakes: 1,
      },
      ...over,
    });
  const server = () =>
    fakeServer({
      'GET /motion/video/9': () => ok({ zips: [], warnings: [] }),
      'GET /motion/video/9/clip_url': () => ({ code: 307, message: 'x' }),
      'GET /motion/fbx/9/anm': () => ({ code: 307, message: 'x' }),
    });
  /** The preview of `video` on the fake server, logged in. */
  const preview = (video: ReturnType<typeof judged>, onRemake?: () => void) => {
    setTokenCookie('t');
    server();
    return renderAt(
      '/x',
      [{ path: '/x', element: <PreviewPlayer video={video} onRemake={onRemake} /> }],
      makeUser(),
    );
  };

  it('the card shows the quality and the weak parts; an unusable one says so and what came back', () => {
    setLangForTests('en');
    const a = render(<CardJudgement video={judged()} />);
    const line = screen.getByTestId('card-judgement');
    expect(line.getAttribute('data-level')).toBe('fair');
    expect(line.textContent).toBe('Quality 79%2 weak parts');
    a.unmount();
    setLangForTests('zh');
    render(
      <CardJudgement
        video={judged({
          judgement: { confidence: 0.21, ranges: [], unusable: true, refundedCoins: 10, judgeRemakes: 1 },
        })}
      />,
    );
    expect(screen.getByTestId('card-judgement').getAttribute('data-level')).toBe('poor');
    expect(screen.getByTestId('card-unusable').textContent).toBe('结果不可用 · 已退还 10 V币');
  });

  it('no judgement (an older result): nothing shown', () => {
    render(<CardJudgement video={made()} />);
    expect(screen.queryByTestId('card-judgement')).toBeNull();
  });

  for (const [lang, title, chip, line, free, rule] of [
    [
      'en',
      'The capture flagged 2 parts of this result (confidence 79%):',
      '5.0–7.5 s · lost, impossible pose',
      '5.0–7.5 s: tracking lost for a long stretch; impossible pose (limbs stretched or shrunk)',
      'Flagged results give this video free remakes: 2 left.',
      'A result is unusable when more than 40% of the clip is weak or its confidence is under 40%',
    ],
    [
      'zh',
      '动捕判断本结果有 2 处薄弱片段（整体可信度 79%）：',
      '5.0–7.5 秒 · 跟丢、姿态异常',
      '5.0–7.5 秒：长时间跟丢人物; 不可能的姿态（肢体被拉长或缩短）',
      '被标记的结果会为该视频赠送免费制作次数：剩余 2 次。',
      '超过 40% 的片段薄弱或整体可信度低于 40% 时',
    ],
  ] as const) {
    it(`the preview: strip under the time bar, warning, free remake, rule (${lang})`, async () => {
      setLangForTests(lang);
      const onRemake = vi.fn();
      preview(judged(), onRemake);
      const notice = await screen.findByTestId('judge-notice');
      expect(notice.textContent).toContain(title);
      // Each range a chip (short words), its full sentence as the tooltip; a click seeks there.
      const chips = screen.getAllByTestId('judge-line');
      expect(chips[1]!.textContent).toBe(chip);
      expect(chips[1]!.getAttribute('title')).toBe(line);
      expect(screen.getByTestId('judge-remakes').textContent).toContain(free);
      expect(notice.textContent).toContain(rule);
      fireEvent.click(screen.getByTestId('judge-remake'));
      expect(onRemake).toHaveBeenCalledTimes(1);
    });
  }

  it('the strip places each weak range on the clip’s timeline; a click seeks there', () => {
    setLangForTests('en');
    const seek = vi.fn();
    render(<ConfidenceStrip judgement={judged().judgement!} duration={10} onSeek={seek} />);
    const ranges = screen.getAllByTestId('judge-range');
    expect(ranges.map((r) => [r.style.left, r.style.width])).toEqual([
      ['8%', '4%'],
      ['50%', '25%'],
    ]);
    expect(ranges[0]!.getAttribute('class')).toContain('judge-range-bad');
    expect(ranges[1]!.getAttribute('class')).not.toContain('judge-range-bad');
    fireEvent.click(ranges[1]!);
    expect(seek).toHaveBeenCalledWith(5);
  });

  it('none left: the spec’s words; an unusable result says what came back', async () => {
    setLangForTests('zh');
    preview(
      judged({
        freeRemakes: 0,
        judgement: {
          confidence: 0.3,
          ranges: [{ from: 0, to: 6, confidence: 0, reasons: ['gap'] }],
          unusable: true,
          refundedCoins: 10,
          judgeRemakes: 2,
        },
      }),
    );
    expect((await screen.findByTestId('judge-notice')).textContent).toContain(
      '该结果不可用：薄弱片段占整段的 60%（整体可信度 30%）：',
    );
    expect(screen.getByTestId('judge-refunded').textContent).toBe('本结果花费的 10 V币已退还。');
    expect(screen.getByTestId('judge-remakes').textContent).toBe(
      '您的视频免费制作次数已用完，重新制作需要 5 V币。',
    );
  });

  it('a clean result shows no warning', async () => {
    setLangForTests('en');
    preview(
      judged({
        judgement: {
          confidence: 0.95,
          ranges: [],
          unusable: false,
          refundedCoins: 0,
          judgeRemakes: 0,
        },
      }),
    );
    await screen.findByTestId('judge-strip').catch(() => null);
    expect(screen.queryByTestId('judge-notice')).toBeNull();
  });
});

describe('15.7 an order’s goods in the user’s language (the stored title is bilingual)', () => {
  it('monthly and coin packs by goods id; an unknown id keeps the stored title', () => {
    setLangForTests('en');
    expect(orderGoodsName({ goodsId: 1, title: '月度专业版 Monthly Pro' })).toBe('Monthly Pro');
    expect(orderGoodsName({ goodsId: 12, title: '500 V币 V coins' })).toBe('500 V coins');
    setLangForTests('zh');
    expect(orderGoodsName({ goodsId: 1, title: '月度专业版 Monthly Pro' })).toBe('月度专业版');
    expect(orderGoodsName({ goodsId: 23, title: '20000 CV币 CV coins' })).toBe('20000 CV币');
    expect(orderGoodsName({ goodsId: 99, title: '特别 Special' })).toBe('特别 Special');
  });
});

describe('15.7 the music page’s title', () => {
  it('the top bar and the tab say "Music to dance", not the app’s "Motion capture"', () => {
    expect(titleKeyFor('/index/music')).toBe('title.music');
    setLangForTests('zh');
    expect(t(titleKeyFor('/index/music/'))).toBe('音乐生成舞蹈');
  });
});
