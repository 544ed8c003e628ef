/**
 * A terminal progress bar: `label [#####.....]  42% 120/300 frames  31.2 fps  ETA 0:06`.
 * Redraws in place on a TTY (throttled); on a pipe or file it prints a line every 10 %.
 */
export interface ProgressBarOptions {
  label: string;
  unit?: string;
  stream?: NodeJS.WriteStream;
  width?: number;
}

export class ProgressBar {
  private readonly start = performance.now();
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly stream: NodeJS.WriteStream;

  constructor(private readonly opts: ProgressBarOptions) {
    this.stream = opts.stream ?? process.stderr;
  }

  update(done: number, total: number, label?: string): void {
    const now = performance.now();
    const finished = total > 0 && done >= total;
    if (this.stream.isTTY) {
      if (!finished && now - this.lastDraw < 100) return;
      this.lastDraw = now;
      this.stream.write(`\r${this.render(done, total, now, label)}\x1b[K`);
      if (finished) this.stream.write('\n');
    } else {
      const decile = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (decile === this.lastDecile) return;
      this.lastDecile = decile;
      this.stream.write(`${this.render(done, total, now, label)}\n`);
    }
  }

  render(done: number, total: number, now = performance.now(), label?: string): string {
    const width = this.opts.width ?? 30;
    const frac = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(frac * width);
    const elapsed = (now - this.start) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const eta = rate > 0 && total > done ? (total - done) / rate : 0;
    const unit = this.opts.unit ?? 'frames';
    return (
      `${label ?? this.opts.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ` +
      `${String(Math.round(frac * 100)).padStart(3)}% ${done}/${total} ${unit}  ` +
      `${rate.toFixed(1)} ${unit === 'frames' ? 'fps' : `${unit}/s`}  ETA ${formatDuration(eta)}`
    );
  }

  done(message?: string): void {
    if (message) this.stream.write(`${message}\n`);
  }
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}
