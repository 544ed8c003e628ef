/** /index/myProPc and /index/myPromobile: the user's projects with live progress and every card action. */

import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DownloadDialog } from '../components/DownloadDialog.tsx';
import { Icon, IconButton } from '../components/Icon.tsx';
import { CardJudgement } from '../components/Judgement.tsx';
import { ListState } from '../components/ListState.tsx';
import { Confirm } from '../components/Modal.tsx';
import { Pager } from '../components/Pager.tsx';
import { PreviewDialog } from '../components/Preview.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { EditDialog, FeedbackDialog, RemakeDialog } from '../components/VideoDialogs.tsx';
import { useBusy } from '../lib/busy.ts';
import { deleteVideo, myVideos, publishToSquare } from '../lib/endpoints.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { followVideo } from '../lib/progress.ts';
import { useSession } from '../lib/session.tsx';
import type { Video, VideoStatus } from '../lib/types.ts';
import { MusicStrip } from './Music.tsx';

const PAGE_SIZE_PC = 12;
const PAGE_SIZE_M = 10;
const POLL_MS = 3000;

export function formatDate(s: string): string {
  const d = new Date(s);
  if (!s || Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function StatusBadge({ status, progress }: { status: VideoStatus; progress: number }) {
  return (
    <span className={`status status-${status}`} data-status={status}>
      {status === 'inProgress'
        ? t('status.inProgressPct', { n: Math.round(progress) })
        : t(`status.${status}`)}
    </span>
  );
}

export function Thumb({ video }: { video: Video }) {
  const [failed, setFailed] = useState(false);
  return video.thumbnail && !failed ? (
    <img
      className="thumb"
      src={video.thumbnail}
      alt={video.name}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  ) : (
    <div className="thumb thumb-empty">
      <Icon name="film" size={32} />
    </div>
  );
}

type Dialog =
  | { kind: 'preview' | 'download' | 'edit' | 'remake' | 'delete' | 'feedback'; video: Video }
  | { kind: 'none' };

const FILTERS: { key: string; status?: VideoStatus[] }[] = [
  { key: 'all' },
  { key: 'inProgress', status: ['notMade', 'inProgress'] },
  { key: 'made', status: ['made'] },
  { key: 'failed', status: ['failed'] },
];

export function MyProPage({ mobile = false }: { mobile?: boolean }) {
  const { user, refresh } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filter = params.get('status') ?? 'all';
  const [keyword, setKeyword] = useState(params.get('q') ?? '');
  const [list, setList] = useState<Video[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [busy, whileBusy] = useBusy();
  const [polling, setPolling] = useState(false);
  const size = mobile ? PAGE_SIZE_M : PAGE_SIZE_PC;

  const load = useCallback(async () => {
    try {
      const status = FILTERS.find((f) => f.key === filter)?.status;
      const res = await myVideos({ page, size, keyword: params.get('q') || undefined, status }, user);
      setList(res.list);
      setTotal(res.total);
    } catch {
      /* shown */
    } finally {
      setLoading(false);
    }
  }, [page, size, filter, params, user]);

  useEffect(() => {
    void load();
  }, [load]);

  // Live progress: one SSE stream per video being made; polling when a stream cannot be opened.
  const activeIds = list
    .filter((v) => v.status === 'inProgress' || v.status === 'notMade')
    .map((v) => String(v.id))
    .join(',');
  useEffect(() => {
    if (!activeIds) return;
    const offs = activeIds.split(',').map((id) =>
      followVideo(id, {
        onEvent: (e) =>
          setList((l) =>
            l.map((v) =>
              String(v.id) === e.id
                ? { ...v, status: e.status, progress: e.progress, queuePosition: e.position }
                : v,
            ),
          ),
        onDone: () => {
          void load();
          void refresh();
        },
        onFallback: () => setPolling(true),
      }),
    );
    return () => {
      for (const off of offs) off();
    };
  }, [activeIds, load, refresh]);
  const active = activeIds !== '';
  useEffect(() => {
    if (!polling || !active) return;
    const id = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(id);
  }, [polling, active, load]);

  const close = () => setDialog({ kind: 'none' });
  const setQuery = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p);
  };

  const togglePublish = async (v: Video) => {
    try {
      await publishToSquare(v.id, !v.inSquare);
      toast.success(v.inSquare ? t('project.unpublished') : t('project.published'));
      setList((l) => l.map((x) => (x.id === v.id ? { ...x, inSquare: !v.inSquare } : x)));
    } catch {
      /* shown */
    }
  };

  const remove = async (v: Video) => {
    await whileBusy(async () => {
      await deleteVideo(v.id);
      toast.success(t('project.deleted'));
      close();
      void load();
    });
  };

  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <div className={mobile ? 'mypro mypro-m' : 'mypro'}>
      <MusicStrip />
      <div className="toolbar">
        <Tabs
          keys={FILTERS.map((f) => f.key)}
          current={filter}
          label={(k) => t(`project.filter.${k}`)}
          pick={(k) => setQuery({ status: k === 'all' ? undefined : k, page: undefined })}
          className="filters"
          itemClass="filter"
        />
        <form
          className="search"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ q: keyword.trim() || undefined, page: undefined });
          }}
        >
          <Icon name="search" size={16} />
          <input
            value={keyword}
            placeholder={t('project.search')}
            onChange={(e) => setKeyword(e.target.value)}
          />
        </form>
        {!mobile && (
          <button type="button" className="btn btn-primary" onClick={() => navigate('/index/upload')}>
            <Icon name="upload" /> {t('project.new')}
          </button>
        )}
      </div>

      <ListState
        loading={loading}
        empty={list.length === 0}
        icon="film"
        text={params.get('q') || filter !== 'all' ? t('project.noMatch') : t('project.empty')}
        action={
          <button type="button" className="btn btn-primary" onClick={() => navigate('/index/upload')}>
            {t('project.uploadFirst')}
          </button>
        }
      >
        <div className={mobile ? 'cards-m' : 'cards'}>
          {list.map((v) => (
            <article
              className="card"
              key={v.id}
              data-testid="video-card"
              data-video-id={v.id}
              data-status={v.status}
            >
              <button
                type="button"
                className="card-media"
                disabled={v.status !== 'made'}
                onClick={() => setDialog({ kind: 'preview', video: v })}
                aria-label={t('project.preview')}
              >
                <Thumb video={v} />
                {v.status === 'made' && (
                  <span className="play-overlay">
                    <Icon name="playOn" size={28} />
                  </span>
                )}
                <StatusBadge status={v.status} progress={v.progress} />
                {v.duration > 0 && <span className="duration">{v.duration.toFixed(1)}s</span>}
              </button>
              {(v.status === 'inProgress' || v.status === 'notMade') && (
                <div
                  className="card-progress"
                  data-testid="card-progress"
                  aria-valuenow={Math.round(v.progress)}
                  role="progressbar"
                >
                  <div
                    className="progress-bar"
                    style={{ width: `${v.status === 'notMade' ? 0 : v.progress}%` }}
                  />
                  <span>
                    {v.status === 'notMade'
                      ? v.queuePosition
                        ? t('status.queued', { n: v.queuePosition })
                        : t('status.waiting')
                      : `${Math.round(v.progress)}%`}
                  </span>
                </div>
              )}
              <div className="card-body">
                <div className="card-title" title={v.name}>
                  {v.name}
                </div>
                <div className="card-meta">
                  <span className="chip">{v.boneType}</span>
                  <span>{formatDate(v.createAt)}</span>
                  {v.inSquare && <span className="chip chip-on">{t('project.inSquare')}</span>}
                </div>
                <CardJudgement video={v} />
                {v.status === 'failed' && <div className="card-fail">{v.error || t('project.failed')}</div>}
              </div>
              <div className="card-actions">
                {v.status === 'made' && (
                  <>
                    <IconButton
                      icon="eye"
                      title={t('project.preview')}
                      action="preview"
                      onClick={() => setDialog({ kind: 'preview', video: v })}
                    />
                    <IconButton
                      icon="download"
                      title={t('download.button')}
                      action="download"
                      onClick={() => setDialog({ kind: 'download', video: v })}
                    />
                    <IconButton
                      icon="share"
                      title={v.inSquare ? t('project.unpublish') : t('project.publish')}
                      action="publish"
                      on={v.inSquare}
                      onClick={() => void togglePublish(v)}
                    />
                    <IconButton
                      icon="message"
                      title={t('feedback.title')}
                      action="feedback"
                      onClick={() => setDialog({ kind: 'feedback', video: v })}
                    />
                    <IconButton
                      icon="bones"
                      title={t('project.repair')}
                      action="repair"
                      onClick={() =>
                        navigate(
                          `${mobile ? '/refresherM' : '/refresher'}?id=${encodeURIComponent(String(v.id))}`,
                        )
                      }
                    />
                  </>
                )}
                {(v.status === 'made' || v.status === 'failed') && (
                  <IconButton
                    icon="redo"
                    title={t('project.remake')}
                    action="remake"
                    onClick={() => setDialog({ kind: 'remake', video: v })}
                  />
                )}
                <IconButton
                  icon="edit"
                  title={t('project.edit')}
                  action="edit"
                  onClick={() => setDialog({ kind: 'edit', video: v })}
                />
                <IconButton
                  icon="trash"
                  title={t('common.delete')}
                  action="delete"
                  danger
                  onClick={() => setDialog({ kind: 'delete', video: v })}
                />
              </div>
            </article>
          ))}
        </div>
      </ListState>

      <Pager page={page} pages={pages} go={(p) => setQuery({ page: String(p) })} />

      <PreviewDialog
        video={dialog.kind === 'preview' ? dialog.video : null}
        onClose={close}
        onDownload={(v) => setDialog({ kind: 'download', video: v })}
        onRemake={(v) => setDialog({ kind: 'remake', video: v })}
      />
      <DownloadDialog video={dialog.kind === 'download' ? dialog.video : null} onClose={close} />
      <EditDialog
        video={dialog.kind === 'edit' ? dialog.video : null}
        onClose={close}
        onSaved={() => void load()}
      />
      <RemakeDialog
        video={dialog.kind === 'remake' ? dialog.video : null}
        onClose={close}
        onDone={() => void load()}
      />
      <FeedbackDialog video={dialog.kind === 'feedback' ? dialog.video : null} onClose={close} />
      <Confirm
        open={dialog.kind === 'delete'}
        title={t('project.deleteTitle')}
        text={dialog.kind === 'delete' ? t('project.deleteText', { name: dialog.video.name }) : ''}
        okText={t('common.delete')}
        danger
        busy={busy}
        onOk={() => dialog.kind === 'delete' && void remove(dialog.video)}
        onCancel={close}
      />
    </div>
  );
}
