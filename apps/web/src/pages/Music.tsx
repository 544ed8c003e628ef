/**
 * /index/music (lab page, issue 22): upload a song → a dance that follows it. The user's music cards with live
 * progress (the card is polled every second while a dance is being made), a preview that plays the dance on a
 * character with the song as the clock (in sync, pause/seek together), downloads per bone type
 * (DownLoadMusicMotion), a new dance for the same song (redone: new seed), delete. Price and plan limit shown.
 */

import type { Deleted, Music, MusicDownload, MusicUrls, Page } from '@mocap/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Icon, IconTextButton } from '../components/Icon.tsx';
import { ListState } from '../components/ListState.tsx';
import { Confirm, Modal } from '../components/Modal.tsx';
import { musicEn, musicZh } from '../i18n/music.ts';
import { api, upload } from '../lib/api.ts';
import { t, translate } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { PLAN_LIMITS, planOf } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import { parseClip } from '../three/clip.ts';
import { openViewer } from '../three/Viewer.ts';
import '../styles/studio.css';
import '../styles/music.css';
import { saveUrl } from '../components/DownloadDialog.tsx';

/** The page's strings in the user's language. */
export function tm(key: keyof typeof musicEn, vars?: Record<string, string | number>): string {
  return translate(musicEn, musicZh, key, vars);
}

/** A music card as `/music/*` answers it (the contract's). */
export type MusicCard = Music;

const STATUS_KEY = ['status.notMade', 'status.inProgress', 'status.made', 'status.failed'];
const DOWNLOAD_ORDER = [
  'Mixamo',
  'Unreal5.6',
  'Unreal5.5',
  'Unreal4',
  'C4D',
  'CC&iClone',
  'RobloxR15',
  'UnityAnim',
  'BoyFBX',
  'GirlFBX',
  'VMD-TDA',
  'bvh',
  'BIP',
  'CS',
];

function MusicPreview({ card, onClose }: { card: MusicCard; onClose: () => void }) {
  const holder = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [audioUrl, setAudioUrl] = useState('');
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  useEffect(() => {
    const v = openViewer(holder.current, 'girl', () => setState('error'));
    if (!v) return;
    let live = true;
    api
      .get<MusicUrls>(`/music/cos_url/${card.id}`)
      .then(async (u) => {
        if (!u.clip) throw new Error('no clip');
        const res = await fetch(u.clip);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const clip = parseClip(await res.json());
        if (!live) return;
        v?.setClip(clip);
        v?.setTimeSource(() => audio.current?.currentTime ?? 0);
        setAudioUrl(u.audio);
        setState('ready');
      })
      .catch(() => live && setState('error'));
    return () => {
      live = false;
      v?.dispose();
    };
  }, [card.id]);
  return (
    <Modal
      open
      title={tm('music.previewTitle', { name: card.name })}
      onClose={onClose}
      width={900}
      className="music-preview"
    >
      <div className="music-stage" ref={holder} data-testid="music-stage" data-state={state}>
        {state === 'loading' && <div className="spinner" />}
        {state === 'error' && <div className="card-fail">{t('preview.error')}</div>}
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: music without words to caption */}
      <audio
        ref={audio}
        src={audioUrl || undefined}
        controls
        className="music-audio"
        data-testid="music-audio"
        preload="auto"
      />
      <p className="music-credits">{tm('music.credits')}</p>
    </Modal>
  );
}

function DownloadRow({ card }: { card: MusicCard }) {
  const ready = DOWNLOAD_ORDER.filter((b) => card.boneTypes.includes(b));
  const [bone, setBone] = useState(ready[0] ?? 'Mixamo');
  const go = async () => {
    try {
      const d = await api.get<MusicDownload>(`/music/download/0/${card.id}/${encodeURIComponent(bone)}`);
      saveUrl(d.paths[0]!);
    } catch {
      /* shown by the client */
    }
  };
  return (
    <div className="music-download">
      <select
        aria-label={tm('music.boneType')}
        value={bone}
        onChange={(e) => setBone(e.target.value)}
        data-testid="music-bonetype"
      >
        {ready.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
      <IconTextButton
        icon="download"
        size={16}
        className="btn btn-primary btn-sm"
        action="music-download"
        onClick={() => void go()}
      >
        {tm('music.download')}
      </IconTextButton>
    </div>
  );
}

/** A dance's status chip: not made, in progress (with its percentage), made or failed. */
function MusicStatus({ card: m }: { card: MusicCard }) {
  return (
    <span className={`status status-${['notMade', 'inProgress', 'made', 'failed'][m.status]}`}>
      {m.status === 1
        ? t('status.inProgressPct', { n: m.progress })
        : t(STATUS_KEY[m.status] ?? 'status.notMade')}
    </span>
  );
}

/**
 * The user's first `size` music cards, `loading` until the first answer; live progress: polled every second while
 * a dance is being made. A failed load keeps the list (the call shows its own error unless silent).
 */
function useMusicCards(size: number) {
  const [list, setList] = useState<MusicCard[]>([]);
  const [loading, setLoading] = useState(true);
  const load = useCallback(async () => {
    try {
      const p = await api.post<Page<MusicCard>>('/music/center', { page: 1, size }, { silent: true });
      setList(p.list);
    } catch {
      /* silent: the page shows its list as it was, the strip nothing */
    } finally {
      setLoading(false);
    }
  }, [size]);
  useEffect(() => {
    void load();
  }, [load]);
  const busy = list.some((m) => m.status === 0 || m.status === 1);
  useEffect(() => {
    if (!busy) return;
    const h = setInterval(() => void load(), 1000);
    return () => clearInterval(h);
  }, [busy, load]);
  return { list, loading, load };
}

/**
 * The user's music cards in My Projects (shown only when there are some): name, status, live progress (polled
 * every second while a dance is made), a link to the music page for preview and downloads.
 */
export function MusicStrip() {
  const navigate = useNavigate();
  const { list } = useMusicCards(6);
  if (list.length === 0) return null;
  return (
    <section className="music-strip" data-testid="music-strip">
      <div className="music-strip-head">
        <span>{tm('music.myDances')}</span>
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => navigate('/index/music')}>
          {tm('music.open')}
        </button>
      </div>
      <div className="music-strip-cards">
        {list.map((m) => (
          <button
            type="button"
            className="music-chip"
            key={m.id}
            data-testid="music-strip-card"
            data-status={m.status}
            onClick={() => navigate('/index/music')}
          >
            <Icon name="play" size={14} />
            <span className="music-chip-name">{m.name}</span>
            <MusicStatus card={m} />
          </button>
        ))}
      </div>
    </section>
  );
}

export function MusicPage() {
  const { user, refresh } = useSession();
  const plan = user ? planOf(user) : 'free';
  const maxSec = PLAN_LIMITS[plan]?.durationSec ?? 30;
  const { list, loading, load } = useMusicCards(50);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [sending, setSending] = useState<number | null>(null);
  const [preview, setPreview] = useState<MusicCard | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'redone' | 'delete'; card: MusicCard } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const send = async () => {
    if (!file) {
      toast.warning(tm('music.notAudio'));
      return;
    }
    const form = new FormData();
    if (name.trim()) form.append('name', name.trim());
    form.append('file', file);
    setSending(0);
    try {
      await upload<MusicCard>('/music/upload', form, (f) => setSending(Math.round(f * 100))).promise;
      toast.success(t('message.success'));
      setFile(null);
      setName('');
      if (fileInput.current) fileInput.current.value = '';
      await Promise.all([load(), refresh()]);
    } catch {
      /* shown */
    } finally {
      setSending(null);
    }
  };

  const act = async () => {
    if (!confirm) return;
    const { kind, card } = confirm;
    setConfirm(null);
    try {
      if (kind === 'redone') await api.post<MusicCard>(`/music/redone/${card.id}`);
      else await api.del<Deleted>('/music', { ids: [card.id] });
      await Promise.all([load(), refresh()]);
    } catch {
      /* shown */
    }
  };

  return (
    <div className="music-page">
      <section className="music-hero">
        <div>
          <h1>{tm('music.title')}</h1>
          <p className="music-lead">{tm('music.lead')}</p>
          <p className="music-price" data-testid="music-price">
            {tm('music.price', { sec: maxSec })}
          </p>
        </div>
        <form
          className="music-upload"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label className="music-file">
            <Icon name="upload" size={20} />
            <span>{file ? file.name : tm('music.pick')}</span>
            <input
              ref={fileInput}
              type="file"
              accept="audio/*,.wav,.mp3,.m4a,.ogg,.flac"
              data-testid="music-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <input
            className="music-name"
            value={name}
            maxLength={15}
            placeholder={tm('music.name')}
            onChange={(e) => setName(e.target.value)}
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={sending !== null}
            data-action="music-upload"
          >
            {sending !== null ? tm('music.uploading', { n: sending }) : tm('music.upload')}
          </button>
        </form>
      </section>

      <ListState loading={loading} empty={list.length === 0} icon="film" text={tm('music.empty')}>
        <div className="music-cards">
          {list.map((m) => (
            <article
              className="music-card"
              key={m.id}
              data-testid="music-card"
              data-music-id={m.id}
              data-status={m.status}
            >
              <div className="music-card-head">
                <div className="music-card-title" title={m.fileName}>
                  {m.name}
                </div>
                <MusicStatus card={m} />
              </div>
              <div className="card-meta">
                <span>{m.duration.toFixed(1)}s</span>
                {m.tempo !== null && (
                  <span className="chip">{tm('music.tempo', { bpm: Math.round(m.tempo) })}</span>
                )}
                <span className="chip">{tm('music.seed', { n: m.redoneCount + 1 })}</span>
                <span>
                  {m.charged} {m.currency}
                </span>
              </div>
              {(m.status === 0 || m.status === 1) && (
                <div
                  className="card-progress"
                  role="progressbar"
                  aria-valuenow={m.progress}
                  data-testid="music-progress"
                >
                  <div className="progress-bar" style={{ width: `${m.progress}%` }} />
                  <span>{m.progress}%</span>
                </div>
              )}
              {m.status === 3 && <div className="card-fail">{m.error}</div>}
              <div className="music-card-actions">
                {m.status === 2 && (
                  <>
                    <IconTextButton
                      icon="playOn"
                      size={16}
                      action="music-preview"
                      onClick={() => setPreview(m)}
                    >
                      {tm('music.preview')}
                    </IconTextButton>
                    <DownloadRow card={m} />
                  </>
                )}
                {(
                  [
                    ['redone', 'btn btn-sm', m.status === 2 || m.status === 3],
                    ['delete', 'btn btn-sm btn-ghost', m.status !== 1],
                  ] as const
                ).map(
                  ([kind, cls, shown]) =>
                    shown && (
                      <button
                        key={kind}
                        type="button"
                        className={cls}
                        onClick={() => setConfirm({ kind, card: m })}
                        data-action={`music-${kind}`}
                      >
                        {tm(`music.${kind}`)}
                      </button>
                    ),
                )}
              </div>
            </article>
          ))}
        </div>
      </ListState>
      <p className="music-credits">{tm('music.credits')}</p>
      {preview && <MusicPreview card={preview} onClose={() => setPreview(null)} />}
      {confirm && (
        <Confirm
          open
          title={confirm.kind === 'redone' ? tm('music.redone') : tm('music.delete')}
          text={confirm.kind === 'redone' ? tm('music.redoneConfirm') : tm('music.deleteConfirm')}
          danger={confirm.kind === 'delete'}
          onCancel={() => setConfirm(null)}
          onOk={() => void act()}
        />
      )}
    </div>
  );
}
