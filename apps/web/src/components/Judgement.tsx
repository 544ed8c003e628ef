/**
 * The capture's judgement of its result (issue 15.3): the card's quality line, the preview's timeline strip
 * (weak time ranges coloured under the time bar, a click seeks there) and the warning under the player, with the
 * free remakes left and the refund rule.
 */
import { type JudgeKey, tj } from '../i18n/judge.ts';
import { getLang } from '../lib/i18n.ts';
import { remakeCost } from '../lib/plans.ts';
import type { JudgedRange, Video, VideoJudgement } from '../lib/types.ts';

const pct = (x: number) => Math.round(x * 100);
const tenth = (x: number, up: boolean) => ((up ? Math.ceil(x * 10) : Math.floor(x * 10)) / 10).toFixed(1);

/** good ≥ 0.8, fair ≥ 0.5, poor below (or unusable). */
export function qualityLevel(j: VideoJudgement): 'good' | 'fair' | 'poor' {
  if (j.unusable || j.confidence < 0.5) return 'poor';
  return j.confidence >= 0.8 ? 'good' : 'fair';
}

/** One range in words: "0.8–1.2 s: another person or a tracking swap". */
export function rangeText(r: JudgedRange): string {
  const why = (r.reasons.length ? r.reasons : (['weak'] as const))
    .map((x) => tj(`judge.reason.${x}` as JudgeKey))
    .join('; ');
  return tj('judge.range', { from: tenth(r.from, false), to: tenth(r.to, true), why });
}

/** A range in a chip: "1.9–2.9 s · another person, impossible pose". */
function rangeChip(r: JudgedRange): string {
  const span = tj('judge.span', { from: tenth(r.from, false), to: tenth(r.to, true) });
  const why = (r.reasons.length ? r.reasons : (['weak'] as const)).map((x) =>
    tj(`judge.short.${x}` as JudgeKey),
  );
  return `${span} · ${why.join(getLang() === 'zh' ? '、' : ', ')}`;
}

/** Share of the clip (0..100) the weak ranges cover. */
function weakShare(j: VideoJudgement, duration: number): number {
  const total = duration > 0 ? duration : Math.max(...j.ranges.map((r) => r.to), 1);
  return Math.min(100, Math.round((100 * j.ranges.reduce((s, r) => s + (r.to - r.from), 0)) / total));
}

/** The card's line: quality, weak parts, unusable / refunded. */
export function CardJudgement({ video }: { video: Video }) {
  const j = video.judgement;
  if (!j || video.status !== 'made') return null;
  const level = qualityLevel(j);
  return (
    <div className="card-judge" data-testid="card-judgement" data-level={level}>
      <span className={`chip chip-q chip-q-${level}`} title={tj('judge.qualityTip')}>
        {tj('judge.quality', { n: pct(j.confidence) })}
      </span>
      {j.unusable ? (
        <span className="chip chip-q chip-q-poor" data-testid="card-unusable">
          {tj('judge.unusableChip')}
          {j.refundedCoins > 0 && ` · ${tj('judge.refundedChip', { n: j.refundedCoins })}`}
        </span>
      ) : (
        j.ranges.length > 0 && (
          <span className="chip chip-q chip-q-fair" data-testid="card-weak">
            {j.ranges.length === 1 ? tj('judge.weakOne') : tj('judge.weakMany', { n: j.ranges.length })}
          </span>
        )
      )}
    </div>
  );
}

/** The strip under the time bar: the whole clip, weak ranges coloured by how weak; a click seeks there. */
export function ConfidenceStrip({
  judgement,
  duration,
  onSeek,
}: {
  judgement: VideoJudgement;
  duration: number;
  onSeek: (s: number) => void;
}) {
  if (!(duration > 0)) return null;
  return (
    <div
      className={`judge-strip${judgement.unusable ? ' judge-strip-bad' : ''}`}
      data-testid="judge-strip"
      title={tj('judge.strip')}
    >
      {judgement.ranges.map((r) => {
        const round = (x: number) => Math.round(x * 100) / 100;
        const left = round(Math.max(0, Math.min(100, (r.from / duration) * 100)));
        const width = round(Math.max(0.6, Math.min(100 - left, ((r.to - r.from) / duration) * 100)));
        return (
          <button
            type="button"
            key={`${r.from}-${r.to}`}
            className={`judge-range${r.confidence < 0.2 ? ' judge-range-bad' : ''}`}
            style={{ left: `${left}%`, width: `${width}%` }}
            title={rangeText(r)}
            aria-label={`${tj('judge.seek', { from: tenth(r.from, false) })}: ${rangeText(r)}`}
            data-testid="judge-range"
            data-from={r.from}
            onClick={() => onSeek(r.from)}
          />
        );
      })}
    </div>
  );
}

/** The warning under the player (owner): what was flagged and when, free remakes left, refund and its rule. */
export function JudgementNotice({
  video,
  onSeek,
  onRemake,
}: {
  video: Video;
  onSeek: (s: number) => void;
  onRemake?: () => void;
}) {
  const j = video.judgement;
  if (!j || (!j.unusable && j.ranges.length === 0)) return null;
  const c = pct(j.confidence);
  const title = j.unusable
    ? tj('judge.titleUnusable', { c, p: weakShare(j, video.duration) })
    : j.ranges.length === 1
      ? tj('judge.titleOne', { c })
      : tj('judge.titleMany', { n: j.ranges.length, c });
  const left = video.freeRemakes;
  return (
    <div
      className={`preview-warnings judge-notice${j.unusable ? ' judge-notice-bad' : ''}`}
      role="alert"
      data-testid="judge-notice"
    >
      <strong>{title}</strong>
      {j.ranges.length > 0 && (
        <ul className="judge-chips">
          {j.ranges.map((r) => (
            <li key={`${r.from}-${r.to}`}>
              <button
                type="button"
                className={`chip chip-q ${r.confidence < 0.2 ? 'chip-q-poor' : 'chip-q-fair'}`}
                title={rangeText(r)}
                data-testid="judge-line"
                onClick={() => onSeek(r.from)}
              >
                {rangeChip(r)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {video.isOwner && (
        <div className="judge-foot">
          {j.refundedCoins > 0 && (
            <p className="judge-line" data-testid="judge-refunded">
              {tj('judge.refunded', { n: j.refundedCoins })}
            </p>
          )}
          <p className="judge-line" data-testid="judge-remakes">
            {left !== null && left > 0
              ? tj('judge.freeLeft', { left })
              : tj('judge.noneLeft', { n: remakeCost(video.duration) })}
            {onRemake && (
              <button type="button" className="btn btn-sm" data-testid="judge-remake" onClick={onRemake}>
                {tj('judge.remake')}
              </button>
            )}
          </p>
          <p className="judge-line muted small">{tj('judge.rule')}</p>
        </div>
      )}
    </div>
  );
}
