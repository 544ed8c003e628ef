/**
 * "Motion options" of the upload form and the remake dialog: smoothing, foot locking, keep in place, the
 * performer's height — what `mocap convert` offers, with a one-line summary while folded.
 */
import { useId } from 'react';
import { t } from '../lib/i18n.ts';
import {
  checkSolveOptions,
  DEFAULT_SOLVE_OPTIONS,
  FOOT_LOCK_MODES,
  type FootLockMode,
  formOf,
  HEIGHT_CM,
  isDefault,
  type SolveOptionsForm,
} from '../lib/solveOptions.ts';

/** One line: "Smoothing 0.5 · Feet: auto · height as measured" (shown folded and next to a project). */
export function solveOptionsSummary(f: SolveOptionsForm): string {
  const parts = [
    t('solve.summarySmoothing', {
      s: f.smoothing === 0 ? t('solve.smoothingNone') : f.smoothing.toFixed(2).replace(/0$/, ''),
    }),
    t('solve.summaryFootLock', { m: t(`solve.footLockShort.${f.footLock}`) }),
  ];
  if (f.rootAtOrigin) parts.push(t('solve.summaryInPlace'));
  parts.push(
    f.heightCm.trim() ? t('solve.summaryHeight', { cm: f.heightCm.trim() }) : t('solve.summaryAuto'),
  );
  return parts.join(' · ');
}

export function SolveOptionsPanel({
  value,
  onChange,
  defaultOpen = false,
  testId = 'solve-options',
}: {
  value: SolveOptionsForm;
  onChange: (v: SolveOptionsForm) => void;
  defaultOpen?: boolean;
  testId?: string;
}) {
  const id = useId();
  const heightProblem = checkSolveOptions(value);
  const set = (patch: Partial<SolveOptionsForm>) => onChange({ ...value, ...patch });
  return (
    <details className="solve-options" open={defaultOpen || !!heightProblem} data-testid={testId}>
      <summary>
        <span className="solve-options-title">{t('solve.title')}</span>
        <span className="solve-options-summary muted">{solveOptionsSummary(value)}</span>
      </summary>
      <div className="solve-options-body">
        <label className="field" htmlFor={`${id}-smoothing`}>
          <span className="field-label">
            {t('solve.smoothing')}
            <output className="counter" htmlFor={`${id}-smoothing`}>
              {value.smoothing === 0 ? t('solve.smoothingNone') : value.smoothing.toFixed(2)}
            </output>
          </span>
          <input
            id={`${id}-smoothing`}
            name="smoothing"
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={value.smoothing}
            onChange={(e) => set({ smoothing: Number(e.target.value) })}
          />
          <span className="field-hint muted small">{t('solve.smoothingHint')}</span>
        </label>
        <label className="field" htmlFor={`${id}-footlock`}>
          <span className="field-label">{t('solve.footLock')}</span>
          <select
            id={`${id}-footlock`}
            name="footLock"
            value={value.footLock}
            onChange={(e) => set({ footLock: e.target.value as FootLockMode })}
          >
            {FOOT_LOCK_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`solve.footLock.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="solve-check" htmlFor={`${id}-origin`}>
          <input
            id={`${id}-origin`}
            name="rootAtOrigin"
            type="checkbox"
            checked={value.rootAtOrigin}
            onChange={(e) => set({ rootAtOrigin: e.target.checked })}
          />
          <span>
            {t('solve.rootAtOrigin')}
            <span className="field-hint muted small">{t('solve.rootAtOriginHint')}</span>
          </span>
        </label>
        <label className={`field${heightProblem ? ' has-error' : ''}`} htmlFor={`${id}-height`}>
          <span className="field-label">{t('solve.height')}</span>
          <span className="input-unit">
            <input
              id={`${id}-height`}
              name="height"
              type="number"
              inputMode="numeric"
              min={HEIGHT_CM.min}
              max={HEIGHT_CM.max}
              step={1}
              placeholder={t('solve.heightPlaceholder')}
              value={value.heightCm}
              onChange={(e) => set({ heightCm: e.target.value })}
            />
            <span className="muted">{t('solve.heightUnit')}</span>
          </span>
          {heightProblem ? (
            <span className="field-error" role="alert">
              {t(heightProblem.key, heightProblem.vars)}
            </span>
          ) : (
            <span className="field-hint muted small">{t('solve.heightHint')}</span>
          )}
        </label>
        {!isDefault(value) && (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => onChange(formOf(DEFAULT_SOLVE_OPTIONS))}
          >
            {t('solve.reset')}
          </button>
        )}
      </div>
    </details>
  );
}
