// @vitest-environment happy-dom
/** Component tests: guard, sidebar rules in the UI, every upload validation as the user meets it, envelope handling. */
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Announcement, textHash } from '../src/components/Announcement.tsx';
import { DownloadDialog } from '../src/components/DownloadDialog.tsx';
import { ListState } from '../src/components/ListState.tsx';
import { Messages } from '../src/components/Messages.tsx';
import { NoticeCarousel } from '../src/components/NoticeCarousel.tsx';
import { Sidebar } from '../src/components/Sidebar.tsx';
import { RemakeDialog } from '../src/components/VideoDialogs.tsx';
import { api, request, setLogoutRedirect } from '../src/lib/api.ts';
import { useBusy } from '../src/lib/busy.ts';
import { getCookie, getToken } from '../src/lib/cookies.ts';
import { ApiError } from '../src/lib/envelope.ts';
import { setLangForTests, switchLang } from '../src/lib/i18n.ts';
import { currentMessages, dismissMessage } from '../src/lib/messages.ts';
import { blockBrowserZoom } from '../src/lib/scale.ts';
import type { MaintainInfo } from '../src/lib/types.ts';
import * as validation from '../src/lib/uploadValidation.ts';
import { LoginPage, RegisterPage } from '../src/pages/Auth.tsx';
import { UploadPage } from '../src/pages/Upload.tsx';
import {
  cleanSlate,
  fakeServer,
  madeVideo,
  makeUser,
  ok,
  remakeServer,
  renderAt,
  renderNav,
  setTokenCookie,
  squareVideoRoutes,
  stubObjectUrls,
} from './helpers.tsx';

setLangForTests('zh');

/** Awaits a call that must fail; its ApiError. */
const fail = (p: Promise<unknown>): Promise<ApiError> =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: ApiError) => e,
  );
const shown = () => currentMessages().map((m) => m.text);

cleanSlate();

describe('a list page’s states (ListState)', () => {
  const listOf = (loading: boolean, empty: boolean) =>
    render(
      <ListState
        loading={loading}
        empty={empty}
        icon="film"
        text="nothing yet"
        action={<button type="button">go</button>}
      >
        <ul data-testid="the-list" />
      </ListState>,
    ).container;
  it('shows the spinner while loading, the icon, text and action when empty, else the list', () => {
    const loading = listOf(true, true);
    expect(loading.querySelector('.page-loading > .spinner')).not.toBeNull();
    expect(loading.querySelector('.empty, [data-testid="the-list"]')).toBeNull();
    cleanup();
    const empty = listOf(false, true);
    expect(empty.querySelector('.empty > svg')).not.toBeNull();
    expect(empty.querySelector('.empty > p')?.textContent).toBe('nothing yet');
    expect(empty.querySelector('.empty > button')?.textContent).toBe('go');
    expect(empty.querySelector('[data-testid="the-list"]')).toBeNull();
    cleanup();
    const full = listOf(false, false);
    expect(full.querySelector('[data-testid="the-list"]')).not.toBeNull();
    expect(full.querySelector('.page-loading, .empty')).toBeNull();
  });
});

describe('useBusy', () => {
  it('is busy while the action runs, not after; a failed action is not thrown on', async () => {
    const { result } = renderHook(() => useBusy());
    let finish: () => void = () => undefined;
    let running: Promise<void> = Promise.resolve();
    act(() => {
      running = result.current[1](() => new Promise<void>((r) => (finish = r)));
    });
    expect(result.current[0]).toBe(true);
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current[0]).toBe(false);
    await act(() => result.current[1](() => Promise.reject(new Error('shown by the api layer'))));
    expect(result.current[0]).toBe(false);
  });
});

describe('navigation guard in the router', () => {
  const routes = [
    { path: '/home', element: <div>HOME PAGE</div> },
    { path: '/login', element: <div>LOGIN PAGE</div> },
    { path: '/index/myProPc', element: <div>MY PROJECTS</div> },
  ];
  it('sends a protected path to /home without a token and sets the title', async () => {
    const { router } = renderAt('/index/myProPc', routes);
    expect(await screen.findByText('HOME PAGE')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
    expect(document.title).toContain('视频生成 3D 动作捕捉');
  });
  it('lets it through with a token; /login stays reachable', async () => {
    setTokenCookie('t0k');
    const { router } = renderAt('/index/myProPc', routes);
    expect(await screen.findByText('MY PROJECTS')).toBeTruthy();
    expect(document.title).toContain('我的项目');
    await act(() => router.navigate('/login'));
    expect(await screen.findByText('LOGIN PAGE')).toBeTruthy();
  });
});

describe('sidebar', () => {
  /** The sidebar on My Projects of an account with `uploads` uploads, beside placeholder `pages`. */
  const sidebarAt = (uploads: number, pages: Record<string, string>) =>
    renderNav(<Sidebar tomoMaintain={false} />, makeUser({}, uploads), pages, '/index/myProPc');
  it('before the first upload only upload works; the others warn 请先上传视频', async () => {
    const { router } = sidebarAt(0, { '/index/upload': 'UPLOAD PAGE' });
    const items = screen.getAllByRole('button').filter((b) => b.hasAttribute('data-menu-value'));
    expect(items.map((b) => b.getAttribute('data-menu-value'))).toEqual(['1', '2', '6']);
    expect(items.map((b) => b.getAttribute('aria-disabled'))).toEqual(['true', 'false', 'true']);
    fireEvent.click(screen.getByText('广场'));
    expect(await screen.findByText('请先上传视频')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/index/myProPc');
    fireEvent.click(screen.getByText('上传'));
    expect(await screen.findByText('UPLOAD PAGE')).toBeTruthy();
  });
  it('after an upload every entry works', async () => {
    const { router } = sidebarAt(3, { '/index/square': 'SQUARE PAGE' });
    fireEvent.click(screen.getByText('广场'));
    expect(await screen.findByText('SQUARE PAGE')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/index/square');
  });
  it('company accounts get the company menu (built entries only) and no digital-human button', () => {
    renderNav(<Sidebar tomoMaintain={false} />, makeUser({ type: 2 }, 0));
    expect(screen.queryByText('广场')).toBeNull();
    expect(screen.queryByText('数字人')).toBeNull();
  });
});

describe('upload page validations', () => {
  const MB = 1024 * 1024;
  const mp4 = (name = 'clip.mp4', size = 2 * MB, lastModified = 1) => {
    const f = new File([new Uint8Array(8)], name, { type: 'video/mp4', lastModified });
    Object.defineProperty(f, 'size', { value: size });
    return f;
  };
  const server = () =>
    fakeServer({
      'POST /category/search': () => ok([{ id: 3, name: '舞蹈', sort: 1, children: [] }]),
      'POST /tag/search': () => ok([]),
      'GET /motion/boneTypes': () => ok([]),
      'GET /video/getLastModelType': () => ok(''),
    });
  const mount = (surplus = 50, level = 'free') => {
    setTokenCookie('t');
    return renderAt(
      '/index/uploadPc',
      [{ path: '/index/uploadPc', element: <UploadPage /> }],
      makeUser({ surplus, level }, 0),
    );
  };
  const drop = (files: File[]) =>
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files, types: ['Files'] } });

  it('wrong format, too large, several files', async () => {
    server();
    mount();
    drop([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(await screen.findByText('文件格式错误,请重新选择!')).toBeTruthy();
    drop([mp4('big.mp4', 60 * MB)]);
    expect(await screen.findByText('视频上传大小不能大于50M')).toBeTruthy();
    drop([mp4('a.mp4'), mp4('b.mp4')]);
    expect(await screen.findByText('当前限制选择 最多1 个视频')).toBeTruthy();
  });

  it('duration over the plan limit (read from a <video> element)', async () => {
    server();
    vi.spyOn(validation, 'readDuration').mockResolvedValue(45);
    mount();
    drop([mp4()]);
    expect(await screen.findByText('视频时长不能超过30秒')).toBeTruthy();
    expect(screen.getByTestId('dropzone')).toBeTruthy();
  });

  it('duplicate file, title, category/tag, comma, FBX only, coins, then the confirmation shows the cost', async () => {
    const srv = server();
    vi.spyOn(validation, 'readDuration').mockResolvedValue(9.4);
    stubObjectUrls();
    mount(50);
    const f = mp4('a-very-long-file-name-here.mp4', 2 * MB, 7);
    drop([f]);
    const title = (await screen.findByDisplayValue('a-very-long-fil')) as HTMLInputElement;
    expect(title.value).toHaveLength(15);
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [mp4('a-very-long-file-name-here.mp4', 2 * MB, 7)] },
    });
    expect(await screen.findByText('当前文件已存在')).toBeTruthy();
    fireEvent.change(title, { target: { value: '一二三四五六七八九十一二三四五六' } });
    fireEvent.click(screen.getByTestId('upload-submit'));
    expect((await screen.findAllByText('标题最多 15 个字符')).length).toBeGreaterThan(0);
    fireEvent.change(title, { target: { value: '街舞' } });
    fireEvent.click(screen.getByTestId('upload-submit'));
    expect((await screen.findAllByText('分类和标签至少选择一项')).length).toBeGreaterThan(0);
    const tagInput = screen.getByPlaceholderText('输入标签后按回车');
    fireEvent.change(tagInput, { target: { value: 'a，b' } });
    fireEvent.keyDown(tagInput, { key: 'Enter' });
    expect(await screen.findByText('标签内容不能包含有（，）逗号')).toBeTruthy();
    fireEvent.change(tagInput, { target: { value: 'hiphop' } });
    fireEvent.keyDown(tagInput, { key: 'Enter' });
    expect(await screen.findByText('hiphop')).toBeTruthy();
    fireEvent.click(screen.getByText('VMD-TDA'));
    expect(await screen.findByText('免费版用户只能选择 FBX 格式')).toBeTruthy();
    expect(screen.getByText('VMD-TDA').closest('button')?.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('cost').textContent).toContain('10 V币');
    fireEvent.click(screen.getByTestId('upload-submit'));
    expect(await screen.findByText('该视频时长 10 秒，需要 10 V币，上传后剩余 40 V币。')).toBeTruthy();
    expect(srv.calls.some((c) => c.path === '/video/upload')).toBe(false);
  });

  it('insufficient coins blocks before any byte is sent', async () => {
    const srv = server();
    vi.spyOn(validation, 'readDuration').mockResolvedValue(20);
    stubObjectUrls();
    mount(5);
    drop([mp4('dance.mp4')]);
    await screen.findByDisplayValue('dance');
    fireEvent.change(document.querySelector('select[name="category"]')!, { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('upload-submit'));
    expect((await screen.findAllByText('你的V币余额不足,无法制作视频')).length).toBeGreaterThan(0);
    expect(screen.queryByText('确认上传')).toBeNull();
    expect(srv.calls.some((c) => c.path === '/video/upload')).toBe(false);
  });
});

describe('accounts forms', () => {
  it('login: empty fields', async () => {
    fakeServer({});
    renderAt('/login', [{ path: '/login', element: <LoginPage /> }]);
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入邮箱!')).toBeTruthy();
    expect(screen.getByText('请输入密码!')).toBeTruthy();
  });
  it('register: code, passwords, agreement', async () => {
    const srv = fakeServer({});
    renderAt('/register', [{ path: '/register', element: <RegisterPage /> }]);
    const set = (name: string, value: string) =>
      fireEvent.change(document.querySelector(`input[name="${name}"]`) as HTMLInputElement, {
        target: { value },
      });
    set('email', 'ann@example.com');
    set('code', '123');
    set('password', 'secret1');
    set('password2', 'secret2');
    fireEvent.click(screen.getByRole('button', { name: '创建账号' }));
    expect(await screen.findByText('请输入四位数验证码~')).toBeTruthy();
    expect(screen.getByText('两个密码不一致。请检查并再次输入')).toBeTruthy();
    expect(screen.getAllByText('请请勾选用户协议和隐私声明!').length).toBeGreaterThan(0);
    expect(srv.calls).toHaveLength(0);
  });
  it('send code twice while counting down: 请勿重复发送!', async () => {
    const srv = fakeServer({ 'POST /code/ann@example.com/1': () => ok({ expiresAt: 0 }) });
    renderAt('/register', [{ path: '/register', element: <RegisterPage /> }]);
    fireEvent.change(document.querySelector('input[name="email"]') as HTMLInputElement, {
      target: { value: 'ann@example.com' },
    });
    fireEvent.click(screen.getByText('发送验证码'));
    expect(await screen.findByText(/秒后重发/)).toBeTruthy();
    fireEvent.click(screen.getByText(/秒后重发/));
    expect(await screen.findByText('请勿重复发送!')).toBeTruthy();
    expect(srv.calls.filter((c) => c.path.startsWith('/code/'))).toHaveLength(1);
  });
});

describe('envelope handling in the client', () => {
  it('code 0 returns data; the token rides as a Bearer header', async () => {
    setTokenCookie('abc');
    const srv = fakeServer({ 'GET /x': () => ok({ n: 1 }) });
    expect(await api.get('/x')).toEqual({ n: 1 });
    const init = srv.fetchMock.mock.calls[0][1] as RequestInit;
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
    expect(String(srv.fetchMock.mock.calls[0][0])).toBe('/product/x');
  });
  it.each([401, 407, 408, 421])('%i forces a logout: token gone, message shown, login page', async (code) => {
    setTokenCookie('abc');
    const go = vi.fn();
    setLogoutRedirect(go);
    fakeServer({ 'GET /x': () => ({ code, message: code === 401 ? 'token revoked' : '' }) });
    sessionStorage.setItem('cache', '1');
    const err = await fail(api.get('/x'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('logout');
    expect(getToken()).toBeUndefined();
    expect(sessionStorage.getItem('cache')).toBeNull();
    expect(shown()).toContain(
      code === 401
        ? 'token revoked'
        : code === 408
          ? '账号已被禁用,请联系管理员'
          : code === 407
            ? '用户名或密码错误'
            : '登录超时,请重新登录',
    );
    await waitFor(() => expect(go).toHaveBeenCalledWith('/capture/login'), { timeout: 3000 });
  });
  it('400 is silent', async () => {
    fakeServer({ 'GET /x': () => ({ code: 400, message: 'bad' }) });
    const err = await fail(api.get('/x'));
    expect(err.kind).toBe('silent');
    expect(shown()).toEqual([]);
  });
  it('300 is shown, except for the upload / motion download / regen calls', async () => {
    fakeServer({ 'GET /x': () => ({ code: 300, message: '用户名或密码错误' }) });
    await api.get('/x').catch(() => undefined);
    expect(shown()).toEqual(['用户名或密码错误']);
    for (const m of currentMessages()) dismissMessage(m.id);
    const err = await fail(api.get('/x', { quiet: 'motionDownload' }));
    expect(err.message).toBe('用户名或密码错误');
    expect(shown()).toEqual([]);
  });
  it('other codes show net.{code}; a missing code shows 服务器错误', async () => {
    fakeServer({ 'GET /x': () => ({ code: 501, message: 'stack trace' }), 'GET /y': () => ({ data: 1 }) });
    await api.get('/x').catch(() => undefined);
    await api.get('/y').catch(() => undefined);
    expect(shown()).toEqual(['服务器繁忙,请稍后重试', '服务器错误']);
  });
  it('a timeout shows the net.timeout text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_: unknown, init?: RequestInit) =>
          new Promise((_res, rej) =>
            init?.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    const err = await fail(request('GET', '/slow', { timeoutMs: 30 }));
    expect(err.kind).toBe('timeout');
    expect(shown()).toEqual(['网络请求超时']);
  });
  it('messages render as a notification outside the app and a toast inside', async () => {
    history.replaceState(null, '', '/capture/login');
    render(<Messages />);
    fakeServer({ 'GET /x': () => ({ code: 411, message: 'email already registered by another user' }) });
    await api.get('/x').catch(() => undefined);
    expect((await screen.findByRole('alert')).className).toContain('notification');
    for (const m of currentMessages()) dismissMessage(m.id);
    history.replaceState(null, '', '/capture/index/myProPc');
    await api.get('/x').catch(() => undefined);
    await waitFor(() => expect(document.querySelector('.toast')).toBeTruthy());
  });
});

describe('shell pieces', () => {
  const maintain = (over: Partial<MaintainInfo> = {}): MaintainInfo => ({
    maintainBtn: false,
    markBtn: false,
    maintainText: '',
    versionBtn: true,
    versionText: 'v2.0: hands and face capture',
    plateNumber: '',
    plateNumberBtn: false,
    tomoMaintain: false,
    ...over,
  });
  it('the version announcement closes and stays closed by cookie', () => {
    const { unmount } = render(<Announcement info={maintain()} />);
    expect(screen.getByTestId('announcement').textContent).toContain('v2.0');
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(screen.queryByTestId('announcement')).toBeNull();
    expect(getCookie('announcement_closed')).toBe(textHash('v2.0: hands and face capture'));
    unmount();
    render(<Announcement info={maintain()} />);
    expect(screen.queryByTestId('announcement')).toBeNull();
    cleanup();
    render(<Announcement info={maintain({ versionText: 'v2.1 new' })} />);
    expect(screen.getByTestId('announcement')).toBeTruthy();
  });
  const notices = [
    {
      id: '1',
      page: 1,
      link: '/capture/index/square',
      button: '立即前往广场看看吧',
      url: '',
      isVideo: false,
      title: 'A',
      content: 'a',
    },
    {
      id: '2',
      page: 2,
      link: 'https://x.test',
      button: '去看看',
      url: '',
      isVideo: false,
      title: 'B',
      content: 'b',
    },
  ];
  it('notice carousel: slide size, no autoplay, button font by label length, do-not-show-again tells the server', async () => {
    vi.useFakeTimers();
    const tell = vi.fn(async () => undefined);
    const close = vi.fn();
    render(<NoticeCarousel notices={notices} onClose={close} tellServer={tell} />);
    const slide = screen.getByTestId('notice-slide');
    expect(slide.style.width).toBe('946px');
    expect(slide.style.height).toBe('466px');
    expect(screen.getByText('立即前往广场看看吧').style.fontSize).toBe('16px');
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByText('A')).toBeTruthy();
    vi.useRealTimers();
    fireEvent.click(screen.getByRole('button', { name: '下一条公告' }));
    expect(screen.getByText('去看看').style.fontSize).toBe('20px');
    fireEvent.click(screen.getByLabelText('不再显示'));
    fireEvent.click(screen.getAllByRole('button', { name: '关闭' })[0]);
    expect(tell).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalled();
  });
  it('closing without the toggle does not tell the server', () => {
    const tell = vi.fn(async () => undefined);
    render(<NoticeCarousel notices={notices} onClose={() => undefined} tellServer={tell} />);
    fireEvent.click(screen.getAllByRole('button', { name: '关闭' })[0]);
    expect(tell).not.toHaveBeenCalled();
  });
  it('the language switch stores a cookie and reloads', () => {
    const reload = vi.fn();
    switchLang('en', reload);
    expect(getCookie('lang')).toBe('en');
    expect(reload).toHaveBeenCalledTimes(1);
    setLangForTests('zh');
  });
  it('ctrl+wheel and ctrl +/- are blocked', () => {
    const off = blockBrowserZoom(window);
    const key = new KeyboardEvent('keydown', { key: '=', ctrlKey: true, cancelable: true });
    window.dispatchEvent(key);
    expect(key.defaultPrevented).toBe(true);
    const plain = new KeyboardEvent('keydown', { key: 'a', ctrlKey: true, cancelable: true });
    window.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);
    // happy-dom's WheelEvent drops ctrlKey from its init: set it on the event.
    const wheel = new WheelEvent('wheel', { deltaY: 10, cancelable: true });
    Object.defineProperty(wheel, 'ctrlKey', { value: true });
    window.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(true);
    off();
  });
});

describe('download and remake dialogs', () => {
  const made = (over: Record<string, unknown> = {}) => madeVideo('BoyFBX', over);

  it('an empty path list says 此视频无该文件', async () => {
    setTokenCookie('t');
    fakeServer({
      'GET /motion/boneTypes': () => ok([]),
      'GET /motion/video/9': () => ok({ zips: [{ boneType: 'BoyFBX', format: 'fbx', allowed: true }] }),
      'GET /motion/download/video/9/BoyFBX': () =>
        ok({ paths: [], name: '', bonetype: 'BoyFBX', motionsName: '' }),
    });
    renderAt(
      '/x',
      [{ path: '/x', element: <DownloadDialog video={made()} onClose={() => undefined} /> }],
      makeUser(),
    );
    fireEvent.click(await screen.findByText('BoyFBX'));
    expect((await screen.findAllByText('此视频无该文件')).length).toBeGreaterThan(0);
  });

  it('a square video of someone else shows its price and asks before charging', async () => {
    setTokenCookie('t');
    const srv = fakeServer({
      ...squareVideoRoutes({ due: 5, owned: false, purchased: false, balance: 50, enough: true }),
      'GET /motion/download/video/9/Mixamo': () =>
        ok({
          paths: ['/product/files/x.zip'],
          name: 'x',
          bonetype: 'Mixamo',
          motionsName: 'x.zip',
          charged: 5,
        }),
      'GET /auth/info': () =>
        ok({ user: { id: 1, email: 'a@b.c', surplus: 45, level: 'free' }, roles: [], uploadCount: 1 }),
    });
    const other = made({ creatorId: 2 });
    renderAt(
      '/x',
      [{ path: '/x', element: <DownloadDialog video={other} onClose={() => undefined} /> }],
      makeUser(),
    );
    expect(await screen.findByText('需要 5 V币（5 秒 × 1 V币），每个视频只扣一次')).toBeTruthy();
    fireEvent.click(await screen.findByText('Mixamo'));
    expect(await screen.findByText('花费 5 V币下载 Mixamo?')).toBeTruthy();
    expect(srv.calls.some((c) => c.path.startsWith('/motion/download/'))).toBe(false);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByText('支付并下载'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(srv.calls.filter((c) => c.path === '/motion/download/video/9/Mixamo')).toHaveLength(1);
  });

  it('remake: a free remake first; when none is left (307) the paid remake with its cost', async () => {
    const bodies = remakeServer((b) =>
      (b as { paid?: boolean }).paid
        ? ok({ id: 9, charged: 3 })
        : { code: 307, message: '您的视频免费制作次数已用完' },
    );
    const done = vi.fn();
    renderAt(
      '/x',
      [{ path: '/x', element: <RemakeDialog video={made()} onClose={() => undefined} onDone={done} /> }],
      makeUser(),
    );
    fireEvent.click(await screen.findByText('免费重新制作'));
    expect(await screen.findByText('您的视频免费制作次数已用完')).toBeTruthy();
    fireEvent.click(await screen.findByText('花费 3 V币重新制作'));
    await waitFor(() => expect(done).toHaveBeenCalled());
    // The remake is solved with the video's options (the solver's defaults here: the server told none).
    const options = { smoothing: 0.5, footLock: 'auto', rootAtOrigin: false, height: null };
    expect(bodies).toEqual([
      { id: 9, boneType: 'BoyFBX', ...options },
      { id: 9, boneType: 'BoyFBX', paid: true, ...options },
    ]);
  });
});
