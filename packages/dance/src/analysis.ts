/**
 * Music analysis: mono PCM → onset envelope, tempo over time, beats, downbeats, onsets and energy.
 *
 * Pure TypeScript, no dependencies (no fs). The method:
 * 1. STFT (Hann window ≈ 46 ms, hop ≈ 11.6 ms; 1024/256 at 22.05 kHz, 2048/512 at 44.1 kHz), magnitudes
 *    log-compressed (`log(1 + 1000·|X|)`) and pooled into 40 log-spaced bands (30 Hz – 11 kHz).
 * 2. Onset envelope = half-wave-rectified spectral flux summed over bands, minus a 1 s moving average,
 *    floored at 0, divided by its standard deviation. A second envelope from the bands under 200 Hz
 *    ("low") carries kick drums and bass for the downbeat choice.
 * 3. Tempo over time: autocorrelation of the envelope in 8 s windows every 0.5 s over periods 60–200 BPM.
 *    Each window's salience is normalised to its maximum, a small bonus favours faster periods (the tactus is
 *    taken as the fastest strong periodicity; a drum pattern at 180 BPM is as periodic at 90 BPM), and a
 *    Viterbi path over the period bins with a cost on log-tempo jumps gives one period per window — steady,
 *    gradual and abrupt tempo changes all follow.
 * 4. Beats: dynamic programming as in Ellis (2007), "Beat tracking by dynamic programming": cumulative score
 *    `C(t) = O(t) + max_p C(p) − α·log²((t − p)/P(t))` with the local period `P(t)` from step 3, α = 100,
 *    backtracked from the best late beat; leading and trailing beats on silence are dropped.
 * 4. Downbeats: 4/4 assumed; of the four phases, the one whose beats carry the most low-band onset energy
 *    (kick drums, bass notes on the one) marks bar starts.
 * 5. Onsets: peaks of the envelope above a moving median + 0.5 σ, at least 50 ms apart.
 * 6. Energy: RMS in dB per hop, smoothed over 1 s, mapped to 0..1 between the track's 5th and 95th
 *    percentiles (calm passages low, loud choruses high); per beat: energy and accent (envelope at the beat).
 *
 * Beat accuracy is measured with `beatFMeasure` (±70 ms, as mir_eval) on generated drum tracks in the tests
 * and in `npm run bench -- dance`.
 */

export interface AudioBuffer {
  /** Mono samples, −1..1. */
  readonly samples: Float32Array;
  readonly sampleRate: number;
}

export interface TempoSegment {
  /** Start time, seconds. */
  start: number;
  /** Tempo, beats per minute. */
  bpm: number;
}

export interface MusicAnalysis {
  readonly duration: number;
  /** Frames per second of the envelopes below. */
  readonly envelopeRate: number;
  /** Normalised onset strength per envelope frame. */
  readonly onsetEnvelope: Float32Array;
  /** Energy 0..1 per envelope frame (smoothed loudness relative to the track). */
  readonly energy: Float32Array;
  /** Median tempo of the beats, BPM. */
  readonly tempo: number;
  /** Local tempo over time (one entry per 0.5 s window start). */
  readonly tempoCurve: TempoSegment[];
  /** Beat times, seconds, increasing. */
  readonly beats: number[];
  /** Indices into `beats` of the bar starts. */
  readonly downbeats: number[];
  /** Onset times, seconds. */
  readonly onsets: number[];
  /** Per beat: energy 0..1 at the beat. */
  readonly beatEnergy: number[];
  /** Per beat: accent 0..1 (onset strength at the beat relative to the track's strong beats). */
  readonly beatAccent: number[];
}

export interface AnalysisProgress {
  stage: 'spectrum' | 'tempo' | 'beats';
  fraction: number;
}

// ---------------------------------------------------------------- FFT

function fftInPlace(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const xr = re[b] * cr - im[b] * ci;
        const xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr;
        im[b] = im[a] - xi;
        re[a] += xr;
        im[a] += xi;
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
  }
}

// ---------------------------------------------------------------- helpers

function movingAverage(x: Float32Array | Float64Array, half: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  const cs = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) cs[i + 1] = cs[i] + x[i];
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - half);
    const b = Math.min(n, i + half + 1);
    out[i] = (cs[b] - cs[a]) / (b - a);
  }
  return out;
}

function percentile(values: ArrayLike<number>, q: number): number {
  const a = Array.from(values).sort((x, y) => x - y);
  if (a.length === 0) return 0;
  const pos = q * (a.length - 1);
  const i = Math.floor(pos);
  const f = pos - i;
  return i + 1 < a.length ? a[i] * (1 - f) + a[i + 1] * f : a[i];
}

function std(x: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i];
  m /= Math.max(1, x.length);
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i] - m) ** 2;
  return Math.sqrt(v / Math.max(1, x.length));
}

// ---------------------------------------------------------------- envelopes

interface Envelopes {
  rate: number;
  onset: Float32Array;
  low: Float32Array;
  rmsDb: Float32Array;
  /** Log band spectrum per frame, `[frames × bands]`. */
  bands: Float32Array;
  bandCount: number;
}

function envelopes(audio: AudioBuffer, onProgress?: (p: AnalysisProgress) => void): Envelopes {
  const { samples, sampleRate: sr } = audio;
  let size = 256;
  while (size < 0.046 * sr) size <<= 1;
  const hop = size / 4;
  const frames = Math.max(1, Math.floor((samples.length - size) / hop) + 1);
  const rate = sr / hop;
  const win = new Float64Array(size);
  for (let i = 0; i < size; i++) win[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  // Log-spaced bands.
  const B = 40;
  const fLo = 30;
  const fHi = Math.min(11000, sr / 2 - 1);
  const bandOf = new Int16Array(size / 2).fill(-1);
  const edges: number[] = [];
  for (let b = 0; b <= B; b++) edges.push(fLo * (fHi / fLo) ** (b / B));
  for (let k = 1; k < size / 2; k++) {
    const f = (k * sr) / size;
    for (let b = 0; b < B; b++) if (f >= edges[b] && f < edges[b + 1]) bandOf[k] = b;
  }
  // Bands narrower than a bin get the nearest bin.
  const bandCount = new Float64Array(B);
  for (let k = 0; k < size / 2; k++) if (bandOf[k] >= 0) bandCount[bandOf[k]]++;
  const lowBands = edges.filter((e) => e < 200).length - 1;
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  let prev = new Float64Array(B);
  let cur = new Float64Array(B);
  const flux = new Float32Array(frames);
  const low = new Float32Array(frames);
  const rmsDb = new Float32Array(frames);
  const bands = new Float32Array(frames * B);
  for (let f = 0; f < frames; f++) {
    const o = f * hop;
    let e = 0;
    for (let i = 0; i < size; i++) {
      const s = samples[o + i] ?? 0;
      e += s * s;
      re[i] = s * win[i];
      im[i] = 0;
    }
    rmsDb[f] = 10 * Math.log10(e / size + 1e-10);
    fftInPlace(re, im);
    cur.fill(0);
    for (let k = 1; k < size / 2; k++) {
      const b = bandOf[k];
      if (b < 0) continue;
      cur[b] += Math.log1p((1000 * Math.sqrt(re[k] * re[k] + im[k] * im[k])) / size);
    }
    let fl = 0;
    let lo = 0;
    for (let b = 0; b < B; b++) {
      if (bandCount[b] > 0) cur[b] /= bandCount[b];
      const d = cur[b] - prev[b];
      if (f > 0 && d > 0) {
        fl += d;
        if (b < lowBands) lo += d;
      }
    }
    flux[f] = fl;
    low[f] = lo;
    bands.set(cur, f * B);
    const t = prev;
    prev = cur;
    cur = t;
    if (onProgress && f % 2000 === 0) onProgress({ stage: 'spectrum', fraction: f / frames });
  }
  const norm = (x: Float32Array): Float32Array => {
    const m = movingAverage(x, Math.round(rate / 2));
    const out = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = Math.max(0, x[i] - m[i]);
    const s = std(out) || 1;
    for (let i = 0; i < x.length; i++) out[i] /= s;
    return out;
  };
  return { rate, onset: norm(flux), low: norm(low), rmsDb, bands, bandCount: B };
}

// ---------------------------------------------------------------- tempo

interface TempoTrack {
  /** Window hop, envelope frames. */
  hop: number;
  /** Beat period per window, envelope frames (fractional). */
  period: Float64Array;
}

const MIN_BPM = 60;
const MAX_BPM = 200;

function tempoTrack(env: Float32Array, rate: number): TempoTrack {
  const lagMin = Math.floor((60 / MAX_BPM) * rate);
  const lagMax = Math.ceil((60 / MIN_BPM) * rate);
  const win = Math.round(8 * rate);
  const hop = Math.round(0.5 * rate);
  const n = env.length;
  const W = Math.max(1, Math.ceil(n / hop));
  const L = lagMax - lagMin + 1;
  const sal = new Float64Array(W * L);
  const fastBonus = 0.35;
  for (let w = 0; w < W; w++) {
    const c = w * hop;
    let a = Math.max(0, c - (win >> 1));
    let b = Math.min(n, a + win);
    a = Math.max(0, b - win);
    b = Math.min(n, b);
    let best = 1e-9;
    const ac = new Float64Array(L + 2);
    for (let l = lagMin - 1; l <= lagMax + 1; l++) {
      let s = 0;
      for (let t = a; t + l < b; t++) s += env[t] * env[t + l];
      ac[l - lagMin + 1] = s / Math.max(1, b - a - l);
    }
    for (let i = 0; i < L; i++) {
      // Peak-sharpened: a lag between two bins still scores via its neighbours.
      const v = Math.max(ac[i + 1], 0.5 * (ac[i] + ac[i + 2]));
      sal[w * L + i] = v;
      if (v > best) best = v;
    }
    for (let i = 0; i < L; i++) {
      const lag = lagMin + i;
      const frac = Math.log2(lag / lagMin) / Math.log2(lagMax / lagMin);
      sal[w * L + i] = sal[w * L + i] / best + fastBonus * (1 - frac);
    }
  }
  // Viterbi over lag bins: emission = salience, transition cost on log-tempo jumps.
  const jumpCost = 1.5;
  const score = new Float64Array(L);
  const back = new Int32Array(W * L);
  for (let i = 0; i < L; i++) score[i] = sal[i];
  const next = new Float64Array(L);
  const logLag = Float64Array.from({ length: L }, (_, i) => Math.log(lagMin + i));
  for (let w = 1; w < W; w++) {
    for (let i = 0; i < L; i++) {
      let bestV = Number.NEGATIVE_INFINITY;
      let bestJ = i;
      const li = logLag[i];
      for (let j = 0; j < L; j++) {
        const v = score[j] - jumpCost * Math.abs(li - logLag[j]);
        if (v > bestV) {
          bestV = v;
          bestJ = j;
        }
      }
      next[i] = bestV + sal[w * L + i];
      back[w * L + i] = bestJ;
    }
    score.set(next);
  }
  let k = 0;
  for (let i = 1; i < L; i++) if (score[i] > score[k]) k = i;
  const path = new Int32Array(W);
  for (let w = W - 1; w >= 0; w--) {
    path[w] = k;
    k = back[w * L + k];
  }
  // Parabolic refinement of each window's lag.
  const period = new Float64Array(W);
  for (let w = 0; w < W; w++) {
    const i = path[w];
    let p = lagMin + i;
    if (i > 0 && i < L - 1) {
      const y0 = sal[w * L + i - 1];
      const y1 = sal[w * L + i];
      const y2 = sal[w * L + i + 1];
      const d = y0 - 2 * y1 + y2;
      if (d < 0) p += Math.max(-0.5, Math.min(0.5, (0.5 * (y0 - y2)) / d));
    }
    period[w] = p;
  }
  // Light smoothing of the period path (median of 3) against single-window flips.
  const smooth = Float64Array.from(period);
  for (let w = 1; w < W - 1; w++) {
    smooth[w] = [period[w - 1], period[w], period[w + 1]].sort((x, y) => x - y)[1];
  }
  return { hop, period: smooth };
}

// ---------------------------------------------------------------- beats

function trackBeats(env: Float32Array, tempo: TempoTrack, alpha = 100): number[] {
  const n = env.length;
  const periodAt = (t: number): number => {
    const w = Math.min(tempo.period.length - 1, Math.max(0, Math.round(t / tempo.hop)));
    return tempo.period[w];
  };
  // Local score: envelope smoothed by a Gaussian of width period/32 (as librosa).
  const local = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const sigma = Math.max(1, periodAt(t) / 32);
    const r = Math.ceil(2 * sigma);
    let s = 0;
    let wsum = 0;
    for (let d = -r; d <= r; d++) {
      const u = t + d;
      if (u < 0 || u >= n) continue;
      const w = Math.exp(-0.5 * (d / sigma) ** 2);
      s += w * env[u];
      wsum += w;
    }
    local[t] = s / wsum;
  }
  const cum = new Float64Array(n);
  const back = new Int32Array(n).fill(-1);
  for (let t = 0; t < n; t++) {
    const P = periodAt(t);
    const lo = Math.max(0, Math.floor(t - 2 * P));
    const hi = Math.min(t - 1, Math.ceil(t - P / 2));
    let best = Number.NEGATIVE_INFINITY;
    let bi = -1;
    for (let p = lo; p <= hi; p++) {
      const v = cum[p] - alpha * Math.log((t - p) / P) ** 2;
      if (v > best) {
        best = v;
        bi = p;
      }
    }
    cum[t] = local[t] + (bi >= 0 ? Math.max(0, best) : 0);
    back[t] = bi >= 0 && best > 0 ? bi : -1;
  }
  // Last beat: the latest local maximum of the cumulative score above half the median of the maxima.
  const maxima: number[] = [];
  for (let t = 1; t < n - 1; t++) if (cum[t] > cum[t - 1] && cum[t] >= cum[t + 1]) maxima.push(t);
  if (maxima.length === 0) return [];
  const med = percentile(
    maxima.map((t) => cum[t]),
    0.5,
  );
  let last = maxima[maxima.length - 1];
  for (let i = maxima.length - 1; i >= 0; i--) {
    if (cum[maxima[i]] >= 0.5 * med) {
      last = maxima[i];
      break;
    }
  }
  const beats: number[] = [];
  for (let t = last; t >= 0; t = back[t]) {
    beats.push(t);
    if (back[t] < 0) break;
  }
  beats.reverse();
  // Drop beats on silence at both ends (local score under 10 % of the median beat's).
  const strengths = beats.map((b) => local[b]);
  const thr = 0.1 * percentile(strengths, 0.5);
  let a = 0;
  let z = beats.length;
  while (a < z && strengths[a] < thr) a++;
  while (z > a && strengths[z - 1] < thr) z--;
  return beats.slice(a, z);
}

/**
 * Bar phase (4/4): each phase's beats are scored by low-band onsets (kick, bass on the one) and by the
 * spectral change between the beat before and the beat after (chords change at bar lines).
 */
function downbeatPhase(beatsF: number[], env: Envelopes): number {
  if (beatsF.length < 8) return 0;
  const B = env.bandCount;
  const mean = (a: number, b: number): Float64Array => {
    const m = new Float64Array(B);
    const n = Math.max(1, b - a);
    for (let t = a; t < b; t++) for (let k = 0; k < B; k++) m[k] += env.bands[t * B + k] / n;
    return m;
  };
  const spans = beatsF.map((t, i) =>
    mean(t, beatsF[i + 1] ?? Math.min(env.onset.length, t + (t - beatsF[i - 1]))),
  );
  const change = beatsF.map((_, i) => {
    if (i === 0) return 0;
    let d = 0;
    for (let k = 0; k < B; k++) d += Math.abs(spans[i][k] - spans[i - 1][k]);
    return d;
  });
  const cs = [...change].sort((a, b) => a - b)[change.length >> 1] || 1;
  const at = (x: Float32Array, t: number): number => {
    let m = 0;
    for (let d = -2; d <= 2; d++) m = Math.max(m, x[t + d] ?? 0);
    return m;
  };
  const scores = [0, 0, 0, 0];
  const counts = [0, 0, 0, 0];
  beatsF.forEach((t, i) => {
    scores[i % 4] += at(env.low, t) + change[i] / cs;
    counts[i % 4]++;
  });
  let best = 0;
  for (let k = 1; k < 4; k++) if (scores[k] / counts[k] > scores[best] / counts[best]) best = k;
  return best;
}

function pickOnsets(env: Float32Array, rate: number): number[] {
  const half = Math.round(0.25 * rate);
  const m = movingAverage(env, half);
  const out: number[] = [];
  const minGap = Math.round(0.05 * rate);
  let lastT = -minGap;
  for (let t = 1; t < env.length - 1; t++) {
    if (env[t] > env[t - 1] && env[t] >= env[t + 1] && env[t] > m[t] + 0.5 && t - lastT >= minGap) {
      out.push(t / rate);
      lastT = t;
    }
  }
  return out;
}

/** Analyses a mono track. `onProgress` reports the stages (spectrum dominates the time). */
export function analyzeMusic(audio: AudioBuffer, onProgress?: (p: AnalysisProgress) => void): MusicAnalysis {
  if (!(audio.sampleRate >= 8000)) throw new Error('analyzeMusic: sample rate must be at least 8 kHz');
  const duration = audio.samples.length / audio.sampleRate;
  const env = envelopes(audio, onProgress);
  const { rate, onset } = env;
  onProgress?.({ stage: 'tempo', fraction: 0 });
  const tempo = tempoTrack(onset, rate);
  onProgress?.({ stage: 'beats', fraction: 0 });
  const beatsF = trackBeats(onset, tempo);
  const beats = beatsF.map((t) => t / rate);
  const phase = downbeatPhase(beatsF, env);
  const downbeats: number[] = [];
  for (let i = phase; i < beats.length; i += 4) downbeats.push(i);
  // Energy.
  const smoothDb = movingAverage(env.rmsDb, Math.round(rate / 2));
  const lo = percentile(smoothDb, 0.05);
  const hi = percentile(smoothDb, 0.95);
  const energy = new Float32Array(smoothDb.length);
  for (let i = 0; i < energy.length; i++) {
    energy[i] = Math.min(1, Math.max(0, (smoothDb[i] - lo) / Math.max(6, hi - lo)));
  }
  const strong = percentile(
    beatsF.map((t) => onset[t]),
    0.9,
  );
  const beatEnergy = beatsF.map((t) => energy[Math.min(energy.length - 1, t)]);
  const beatAccent = beatsF.map((t) => {
    let m = 0;
    for (let d = -2; d <= 2; d++) m = Math.max(m, onset[t + d] ?? 0);
    return Math.min(1, m / (strong || 1));
  });
  // Summary tempo: the 20 %-trimmed mean of the beat periods (a median of periods quantised to the hop would
  // be off by up to 1 %).
  const periods = beats
    .slice(1)
    .map((b, i) => b - beats[i])
    .sort((a, b) => a - b);
  const trim = Math.floor(periods.length * 0.2);
  const mid = periods.slice(trim, periods.length - trim);
  const medPeriod = mid.length ? mid.reduce((a, b) => a + b, 0) / mid.length : 0.5;
  const tempoCurve: TempoSegment[] = Array.from(tempo.period, (p, w) => ({
    start: (w * tempo.hop) / rate,
    bpm: (60 * rate) / p,
  }));
  onProgress?.({ stage: 'beats', fraction: 1 });
  return {
    duration,
    envelopeRate: rate,
    onsetEnvelope: onset,
    energy,
    tempo: 60 / medPeriod,
    tempoCurve,
    beats,
    downbeats,
    onsets: pickOnsets(onset, rate),
    beatEnergy,
    beatAccent,
  };
}

// ---------------------------------------------------------------- evaluation

/**
 * Beat F-measure as mir_eval computes it: an estimated beat is a hit when it is within `tolerance` seconds
 * (default 0.07) of a reference beat, each reference beat matched at most once.
 */
export function beatFMeasure(reference: number[], estimated: number[], tolerance = 0.07): number {
  if (reference.length === 0 || estimated.length === 0) return 0;
  const used = new Uint8Array(reference.length);
  let hits = 0;
  let j0 = 0;
  for (const e of estimated) {
    while (j0 < reference.length && reference[j0] < e - tolerance) j0++;
    let best = -1;
    let bestD = tolerance + 1e-9;
    for (let j = j0; j < reference.length && reference[j] <= e + tolerance; j++) {
      const d = Math.abs(reference[j] - e);
      if (!used[j] && d <= bestD) {
        best = j;
        bestD = d;
      }
    }
    if (best >= 0) {
      used[best] = 1;
      hits++;
    }
  }
  const p = hits / estimated.length;
  const r = hits / reference.length;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}
