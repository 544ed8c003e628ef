/** /index/uploadPc and /index/uploadMobile: choose a video, check it, describe it, see the cost, upload. */
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FieldError } from '../components/FieldError.tsx';
import { Icon } from '../components/Icon.tsx';
import { Confirm } from '../components/Modal.tsx';
import { BoneTypePicker, CategoryTagPicker } from '../components/Pickers.tsx';
import { SolveOptionsPanel } from '../components/SolveOptions.tsx';
import { isFbxType } from '../lib/bonetypes.ts';
import { lastModelType, uploadedBefore, uploadVideo } from '../lib/endpoints.ts';
import { ApiError } from '../lib/envelope.ts';
import { t } from '../lib/i18n.ts';
import { toast } from '../lib/messages.ts';
import { mp4VideoSeconds } from '../lib/mp4.ts';
import { PLAN_LIMITS, TITLE_MAX, uploadCost } from '../lib/plans.ts';
import { useSession } from '../lib/session.tsx';
import { checkSolveOptions, DEFAULT_SOLVE_OPTIONS, formOf, toApi } from '../lib/solveOptions.ts';
import {
  checkBoneType,
  checkCategoryTag,
  checkCoins,
  checkDuration,
  checkFiles,
  checkTitle,
  type Problem,
  readDuration,
} from '../lib/uploadValidation.ts';

const say = (p: Problem) => t(p.key, p.vars);

export function UploadPage({ mobile = false }: { mobile?: boolean }) {
  const { user, refresh } = useSession();
  const navigate = useNavigate();
  const plan = user?.plan ?? 'free';
  const limits = PLAN_LIMITS[plan];
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState('');
  const [duration, setDuration] = useState(0);
  const [checking, setChecking] = useState(false);
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [boneType, setBoneType] = useState('BoyFBX');
  const [description, setDescription] = useState('');
  const [solveOptions, setSolveOptions] = useState(() => formOf(DEFAULT_SOLVE_OPTIONS));
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [dragOver, setDragOver] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [serverError, setServerError] = useState('');
  const abortRef = useRef<(() => void) | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void lastModelType().then((b) => {
      if (b && (plan !== 'free' || isFbxType(b))) setBoneType(b);
    });
  }, [plan]);
  useEffect(() => () => abortRef.current?.(), []);
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const choose = async (list: FileList | File[] | null) => {
    const files = list ? Array.from(list) : [];
    const { file: f, problem } = checkFiles(files, file ? [file] : [], plan);
    if (problem) {
      toast.error(say(problem));
      return;
    }
    if (!f) return;
    setChecking(true);
    let seconds = 0;
    try {
      seconds = await readDuration(f);
      // The video track's own length, as the server measures and charges it (the element reports the longest
      // track: audio a few ms longer made 10 s read as 11 V).
      const video = await mp4VideoSeconds(f);
      if (video !== null && Math.abs(video - seconds) < 1) seconds = video;
    } catch {
      setChecking(false);
      toast.error(t('upload.unreadable'));
      return;
    }
    const tooLong = checkDuration(seconds, plan);
    if (tooLong) {
      setChecking(false);
      toast.error(say(tooLong));
      return;
    }
    // Already uploaded? Asked by the file's MD5 before anything is confirmed or paid (issue 15.5).
    const earlier = await uploadedBefore(f).catch(() => null);
    setChecking(false);
    if (earlier) {
      toast.error(t('upload.alreadyUploaded', { name: earlier.name }));
      setServerError(t('upload.alreadyUploaded', { name: earlier.name }));
      return;
    }
    setFile(f);
    setDuration(seconds);
    setPreviewUrl(URL.createObjectURL(f));
    setServerError('');
    if (!title) setTitle([...f.name.replace(/\.mp4$/i, '')].slice(0, TITLE_MAX).join(''));
  };

  const clear = () => {
    setFile(null);
    setDuration(0);
    setPreviewUrl('');
    setProgress(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const cost = file ? uploadCost(duration) : 0;
  const balance = user?.surplus ?? 0;

  const validate = (): boolean => {
    const errs: Record<string, string | null> = {
      file: file ? null : 'upload.chooseFile',
      title: checkTitle(title)?.key ?? null,
      catTag: checkCategoryTag(category, tags)?.key ?? null,
      bone: checkBoneType(boneType, plan)?.key ?? null,
      solve: checkSolveOptions(solveOptions)?.key ?? null,
    };
    const titleProblem = checkTitle(title);
    setErrors(errs);
    const first = Object.entries(errs).find(([, v]) => v);
    if (first) {
      const key = first[1] as string;
      const solveProblem = checkSolveOptions(solveOptions);
      toast.error(
        first[0] === 'title' && titleProblem
          ? say(titleProblem)
          : first[0] === 'solve' && solveProblem
            ? say(solveProblem)
            : t(key),
      );
      return false;
    }
    const coins = checkCoins(cost, balance);
    if (coins) {
      toast.error(say(coins));
      return false;
    }
    return true;
  };

  const start = () => {
    if (!file) return;
    setConfirm(false);
    setServerError('');
    setProgress(0);
    const h = uploadVideo(
      { file, name: title, category, tags, boneType, description, solveOptions: toApi(solveOptions) },
      (f) => setProgress(f),
    );
    abortRef.current = h.abort;
    h.promise
      .then(async () => {
        setProgress(1);
        toast.success(t('upload.done'));
        await refresh();
        navigate(mobile ? '/index/myPromobile' : '/index/myProPc');
      })
      .catch((e: unknown) => {
        setProgress(null);
        if (e instanceof ApiError && e.kind === 'aborted') return;
        const msg = e instanceof ApiError ? e.message : t('net.serverError');
        setServerError(msg);
        if (!(e instanceof ApiError) || !e.shown) toast.error(msg);
      })
      .finally(() => {
        abortRef.current = null;
      });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    void choose(e.dataTransfer.files);
  };

  const uploading = progress !== null;
  return (
    <div className={mobile ? 'upload upload-m' : 'upload'}>
      <section className="panel upload-left">
        <h2 className="panel-title">{t('upload.stepVideo')}</h2>
        {!file ? (
          // biome-ignore lint/a11y/useSemanticElements: a drop target holding block content; Enter/Space open the chooser
          <div
            className={`dropzone${dragOver ? ' over' : ''}`}
            data-testid="dropzone"
            onDragOver={(e) => {
              e.preventDefault();
              setDragOver(true);
            }}
            onDragLeave={() => setDragOver(false)}
            onDrop={onDrop}
            onClick={() => inputRef.current?.click()}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && inputRef.current?.click()}
            role="button"
            tabIndex={0}
          >
            <Icon name="upload" size={mobile ? 36 : 48} />
            <div className="dz-title">
              {checking ? t('upload.checking') : t(mobile ? 'upload.tapToChoose' : 'upload.drop')}
            </div>
            <div className="dz-hint">
              {t('upload.hint', { mb: limits.uploadCheckMb, s: limits.durationSec })}
            </div>
            <div className="dz-tips">{t('upload.tips')}</div>
          </div>
        ) : (
          <div className="chosen">
            <video src={previewUrl} controls muted playsInline className="chosen-video" />
            <div className="chosen-meta">
              <span className="chosen-name" title={file.name}>
                <Icon name="film" size={16} /> {file.name}
              </span>
              <span>{(file.size / 1024 / 1024).toFixed(1)} MB</span>
              <span>{t('upload.seconds', { s: duration.toFixed(1) })}</span>
              {!uploading && (
                <button type="button" className="btn btn-sm" onClick={clear}>
                  {t('upload.replace')}
                </button>
              )}
            </div>
          </div>
        )}
        <input
          ref={inputRef}
          type="file"
          accept="video/mp4,.mp4"
          hidden
          data-testid="file-input"
          onChange={(e) => {
            void choose(e.target.files);
            e.target.value = '';
          }}
        />
        <FieldError>{errors.file && !file && t(errors.file)}</FieldError>
      </section>

      <section className="panel upload-right">
        <h2 className="panel-title">{t('upload.stepDetails')}</h2>
        <label className={`field${errors.title ? ' has-error' : ''}`}>
          <span className="field-label">
            {t('upload.title')}
            <span className={`counter${[...title].length > TITLE_MAX ? ' over' : ''}`}>
              {[...title].length}/{TITLE_MAX}
            </span>
          </span>
          <input
            name="title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder={t('upload.titlePlaceholder')}
          />
          <FieldError>{errors.title && say(checkTitle(title) ?? { key: errors.title })}</FieldError>
        </label>
        <CategoryTagPicker
          category={category}
          tags={tags}
          onCategory={setCategory}
          onTags={setTags}
          error={errors.catTag}
        />
        <div className="field">
          <span className="field-label">{t('upload.boneType')}</span>
          <BoneTypePicker value={boneType} plan={plan} onChange={setBoneType} compact={mobile} />
          <FieldError>{errors.bone && t(errors.bone)}</FieldError>
        </div>
        <label className="field">
          <span className="field-label">{t('upload.description')}</span>
          <textarea
            name="description"
            rows={mobile ? 2 : 3}
            maxLength={200}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <SolveOptionsPanel value={solveOptions} onChange={setSolveOptions} />

        <div className="cost" data-testid="cost">
          <div>
            <span className="muted">{t('upload.cost')}</span>
            <strong>{file ? t('coins.v', { n: cost }) : '—'}</strong>
          </div>
          <div>
            <span className="muted">{t('coins.balance')}</span>
            <strong>{t('coins.v', { n: balance })}</strong>
          </div>
          {file && balance < cost && (
            <div className="cost-warn" role="alert">
              {t('coins.insufficient')}
            </div>
          )}
        </div>

        {uploading && (
          <div className="progress" data-testid="upload-progress">
            <div className="progress-bar" style={{ width: `${Math.round((progress ?? 0) * 100)}%` }} />
            <span>
              {progress !== null && progress >= 1
                ? t('upload.processing')
                : `${Math.round((progress ?? 0) * 100)}%`}
            </span>
          </div>
        )}
        {serverError && (
          <div className="form-error" role="alert">
            {serverError}
          </div>
        )}
        <div className="upload-actions">
          {uploading ? (
            <button type="button" className="btn" onClick={() => abortRef.current?.()}>
              {t('upload.cancel')}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary btn-lg"
              data-testid="upload-submit"
              disabled={checking}
              onClick={() => validate() && setConfirm(true)}
            >
              <Icon name="upload" /> {t('upload.submit')}
            </button>
          )}
        </div>
      </section>
      <Confirm
        open={confirm}
        title={t('upload.confirmTitle')}
        text={t('upload.confirmText', { n: cost, s: Math.ceil(duration), left: balance - cost })}
        okText={t('upload.confirmOk')}
        onOk={start}
        onCancel={() => setConfirm(false)}
      />
    </div>
  );
}
