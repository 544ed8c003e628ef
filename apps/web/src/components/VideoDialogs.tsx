/** Edit, remake and feedback dialogs of a video card. */

import { useEffect, useState } from 'react';
import { tj } from '../i18n/judge.ts';
import { useBusy } from '../lib/busy.ts';
import { editVideo, remakeVideo, sendFeedback } from '../lib/endpoints.ts';
import { ApiError } from '../lib/envelope.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { remakeCost, TITLE_MAX } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import { checkSolveOptions, formOf, toApi } from '../lib/solveOptions.ts';
import type { Video } from '../lib/types.ts';
import { checkCategoryTag, checkTitle } from '../lib/uploadValidation.ts';
import { Icon } from './Icon.tsx';
import { ActionDialog } from './Modal.tsx';
import { BoneTypePicker, CategoryTagPicker } from './Pickers.tsx';
import { SolveOptionsPanel } from './SolveOptions.tsx';

/** What every dialog about one video takes: the video (none: the dialog is shut) and how it closes. */
interface VideoDialogProps {
  video: Video | null;
  onClose: () => void;
}

export function EditDialog({ video, onClose, onSaved }: VideoDialogProps & { onSaved: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useBusy();
  useEffect(() => {
    if (!video) return;
    setName(video.name);
    setDescription(video.description);
    setCategory(video.category);
    setTags(video.tags);
    setError(null);
  }, [video]);
  if (!video) return null;
  const save = async () => {
    const p = checkTitle(name) ?? checkCategoryTag(category, tags);
    if (p) {
      setError(t(p.key, p.vars));
      return;
    }
    await run(async () => {
      await editVideo({ id: video.id, name: name.trim(), description, category, tags });
      toast.success(t('common.saved'));
      onSaved();
      onClose();
    });
  };
  return (
    <ActionDialog
      title={t('project.edit')}
      onClose={onClose}
      width={560}
      onOk={save}
      okText={t('common.save')}
      busy={busy}
    >
      <label className="field">
        <span className="field-label">
          {t('upload.title')}
          <span className="counter">
            {[...name].length}/{TITLE_MAX}
          </span>
        </span>
        <input name="title" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <CategoryTagPicker category={category} tags={tags} onCategory={setCategory} onTags={setTags} />
      <label className="field">
        <span className="field-label">{t('upload.description')}</span>
        <textarea
          rows={3}
          maxLength={200}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </ActionDialog>
  );
}

export function RemakeDialog({ video, onClose, onDone }: VideoDialogProps & { onDone: () => void }) {
  return video ? <RemakeForm key={video.id} video={video} onClose={onClose} onDone={onDone} /> : null;
}

/**
 * Remake with confirmation and cost: a free remake is used while any is left; when the server says none is left
 * (您的视频免费制作次数已用完) the dialog turns into the paid remake at 1 V per 2 s.
 */
function RemakeForm({ video, onClose, onDone }: { video: Video; onClose: () => void; onDone: () => void }) {
  const { user, refresh } = useSession();
  const [boneType, setBoneType] = useState(video.boneType);
  // The options the video was last solved with; the remake uses (and keeps) what is chosen here.
  const [solveOptions, setSolveOptions] = useState(() => formOf(video.solveOptions));
  const [busy, setBusy] = useState(false);
  const [paid, setPaid] = useState(video.freeRemakes === 0);
  const [note, setNote] = useState('');
  const cost = remakeCost(video.duration);
  const balance = user?.surplus ?? 0;
  const go = async () => {
    if (paid && balance < cost) {
      toast.error(t('coins.insufficient'));
      return;
    }
    const problem = checkSolveOptions(solveOptions);
    if (problem) {
      toast.error(t(problem.key, problem.vars));
      return;
    }
    setBusy(true);
    try {
      await remakeVideo(video.id, {
        boneType: boneType || undefined,
        paid,
        solveOptions: toApi(solveOptions),
      });
      toast.success(t('project.remakeStarted'));
      void refresh();
      onDone();
      onClose();
    } catch (e) {
      if (!paid && e instanceof ApiError && e.kind !== 'logout') {
        // No free remake left (or refused): offer the paid one with the server's reason.
        setNote(e.message);
        setPaid(true);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionDialog
      title={t('project.remakeTitle')}
      onClose={onClose}
      width={640}
      onOk={go}
      okText={paid ? t('project.remakeOk', { n: cost }) : t('project.remakeFree')}
      busy={busy}
      okTestId="remake-ok"
    >
      {note && (
        <div className="form-error" role="alert">
          {note}
        </div>
      )}
      <p className="confirm-text">
        {paid
          ? t('project.remakeText', { n: cost, s: Math.ceil(video.duration), b: balance })
          : t('project.remakeFreeText', { left: video.freeRemakes ?? '—', n: cost })}
      </p>
      {!paid && video.judgement && (video.judgement.unusable || video.judgement.ranges.length > 0) && (
        <p className="muted small" data-testid="remake-judge-note">
          {tj('judge.remakeNote')}
        </p>
      )}
      <BoneTypePicker value={boneType} plan={user?.plan ?? 'free'} onChange={setBoneType} compact />
      <SolveOptionsPanel
        value={solveOptions}
        onChange={setSolveOptions}
        defaultOpen
        testId="remake-solve-options"
      />
      <p className="muted small">{t('solve.remakeNote')}</p>
      {paid && balance < cost && (
        <div className="form-error" role="alert">
          {t('coins.insufficient')}
        </div>
      )}
    </ActionDialog>
  );
}

export function FeedbackDialog({ video, onClose }: VideoDialogProps) {
  return video ? <FeedbackForm key={video.id} video={video} onClose={onClose} /> : null;
}

function FeedbackForm({ video, onClose }: { video: Video; onClose: () => void }) {
  const [score, setScore] = useState(0);
  const [content, setContent] = useState('');
  const [busy, run] = useBusy();
  const send = async () => {
    if (!content.trim() && !score) {
      toast.warning(t('feedback.empty'));
      return;
    }
    await run(async () => {
      await sendFeedback(video.id, content.trim(), score || undefined);
      toast.success(t('feedback.thanks'));
      onClose();
    });
  };
  return (
    <ActionDialog
      title={t('feedback.title')}
      onClose={onClose}
      onOk={send}
      okText={t('feedback.send')}
      busy={busy}
    >
      <div className="stars">
        {[1, 2, 3, 4, 5].map((s) => (
          <button
            type="button"
            key={s}
            aria-pressed={score === s}
            aria-label={`${s}`}
            className={`star${s <= score ? ' on' : ''}`}
            onClick={() => setScore(s)}
          >
            <Icon name={s <= score ? 'starOn' : 'star'} size={26} />
          </button>
        ))}
      </div>
      <textarea
        className="feedback-text"
        rows={4}
        maxLength={500}
        value={content}
        placeholder={t('feedback.placeholder')}
        onChange={(e) => setContent(e.target.value)}
      />
    </ActionDialog>
  );
}
