/**
 * The download dialog: every bone type with its coin cost, full or lower body; empty path lists say
 * 此视频无该文件 (spec §5). Square videos of other users cost 1 V coin per second, charged once.
 */
import { useEffect, useState } from 'react';
import type { BoneTypeInfo } from '../lib/bonetypes.ts';
import { downloadMotion, type PreDownload, preMotionDownload, videoZips } from '../lib/endpoints.ts';
import { ApiError } from '../lib/envelope.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { squareDownloadCost } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import type { Video } from '../lib/types.ts';
import { Icon } from './Icon.tsx';
import { Modal } from './Modal.tsx';
import { useBoneTypes } from './Pickers.tsx';

/** Starts a browser download of a URL. */
export function saveUrl(url: string, name?: string): void {
  const a = document.createElement('a');
  a.href = url;
  if (name) a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function DownloadDialog({ video, onClose }: { video: Video | null; onClose: () => void }) {
  const { user, refresh } = useSession();
  const all = useBoneTypes();
  const [offered, setOffered] = useState<BoneTypeInfo[] | null>(null);
  // Every bone type, as upload and remake list them (issue 15.4): those this video has are downloadable within the
  // plan; the others say why not (OnlyFace needs a capture with the face tracked).
  const list = all;
  const made = offered && offered.length > 0 ? new Map(offered.map((b) => [b.name, b])) : null;
  const [pre, setPre] = useState<PreDownload | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [lower, setLower] = useState(false);
  const [error, setError] = useState('');
  const [confirmType, setConfirmType] = useState<string | null>(null);
  const plan = user?.plan ?? 'free';

  useEffect(() => {
    setPre(null);
    setError('');
    setConfirmType(null);
    setOffered(null);
    if (!video) return;
    videoZips(video.id)
      .then(setOffered)
      .catch(() => setOffered([]));
    if (video.isOwner) {
      setPre({ cost: 0, owned: true, balance: null });
      return;
    }
    preMotionDownload(video.id)
      .then(setPre)
      .catch(() => setPre({ cost: squareDownloadCost(video.duration), owned: false, balance: null }));
  }, [video]);

  if (!video) return null;
  const cost = pre && !pre.owned ? pre.cost : 0;

  const run = async (boneType: string) => {
    setError('');
    setBusy(boneType);
    try {
      const res = await downloadMotion(lower, video.id, boneType);
      if (res.paths.length === 0) {
        toast.warning(t('download.noFile'));
        setError(t('download.noFile'));
        return;
      }
      for (const [i, p] of res.paths.entries()) saveUrl(p, i === 0 && res.name ? res.name : undefined);
      toast.success(t('download.started'));
      if (cost > 0) {
        setPre({ cost, owned: true, balance: null });
        void refresh();
      }
    } catch (e) {
      const msg = e instanceof ApiError ? e.message : t('net.serverError');
      setError(msg);
      if (!(e instanceof ApiError) || !e.shown) toast.error(msg);
    } finally {
      setBusy(null);
    }
  };

  const choose = (boneType: string, free: boolean) => {
    if (!free) {
      toast.warning(t('upload.freeFbxOnly'));
      return;
    }
    if (cost > 0) {
      if ((user?.surplus ?? 0) < cost) {
        toast.error(t('coins.insufficientDownload'));
        setError(t('coins.insufficientDownload'));
        return;
      }
      setConfirmType(boneType);
      return;
    }
    void run(boneType);
  };

  return (
    <Modal open title={t('download.title', { name: video.name })} onClose={onClose} width={640}>
      <div className="download" data-testid="download-dialog">
        <div className="download-head">
          <span data-testid="download-terms">
            {cost > 0
              ? t('download.cost', { n: cost, s: Math.ceil(video.duration) })
              : video.isOwner
                ? t('download.free')
                : pre
                  ? t('download.bought')
                  : t('common.wait')}
          </span>
          <label className="checkbox">
            <input type="checkbox" checked={lower} onChange={(e) => setLower(e.target.checked)} />
            {t('download.lowerBody')}
          </label>
        </div>
        <div className="download-list">
          {list.map((b) => {
            const has = made ? made.get(b.name) : b;
            const missing = made !== null && !has;
            const locked = !missing && (made ? !has?.free : plan === 'free' && !b.free);
            return (
              <button
                type="button"
                key={b.name}
                data-bone={b.name}
                data-missing={missing ? '1' : undefined}
                className={`download-item${locked ? ' locked' : ''}${missing ? ' missing' : ''}${b.name === video.boneType ? ' preferred' : ''}`}
                disabled={busy !== null || missing}
                title={
                  missing ? t(b.name === 'OnlyFace' ? 'download.needsFace' : 'download.notMade') : undefined
                }
                onClick={() => choose(b.name, !locked)}
              >
                <span className="bone-name">{b.name}</span>
                <span className="bone-format">{b.format}</span>
                <span className="download-cost">
                  {missing
                    ? t(b.name === 'OnlyFace' ? 'download.needsFaceShort' : 'download.notMadeShort')
                    : locked
                      ? t('upload.vipOnly')
                      : cost > 0
                        ? t('coins.v', { n: cost })
                        : t('download.freeShort')}
                </span>
                <Icon
                  name={busy === b.name ? 'redo' : 'download'}
                  size={16}
                  className={busy === b.name ? 'spin' : ''}
                />
              </button>
            );
          })}
        </div>
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        {confirmType && (
          <div className="inline-confirm" role="alertdialog">
            <span>{t('download.confirm', { n: cost, type: confirmType })}</span>
            <button type="button" className="btn" onClick={() => setConfirmType(null)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                const b = confirmType;
                setConfirmType(null);
                void run(b);
              }}
            >
              {t('download.pay')}
            </button>
          </div>
        )}
      </div>
    </Modal>
  );
}
