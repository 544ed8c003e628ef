/**
 * Test tracks made in code: drum patterns (with a bass line and a pad) at known, also changing, tempi, with
 * their true beats and bar starts. Used by the tests and `npm run bench -- dance`; deterministic per seed.
 *
 * A track is a list of sections; a section has a number of bars (4/4), a start and end tempo (a linear change
 * of the beat period across the section when they differ, an abrupt change between sections), a pattern and
 * a level. Patterns:
 * - `rock`: kick on 1 and 3 (and the "and" of 3), snare on 2 and 4, closed hi-hat on eighths;
 * - `four`: kick on every beat, open hat on the off-beats, clap on 2 and 4;
 * - `half`: half-time: kick on 1, snare on 3, hi-hat on quarters;
 * - `calm`: soft rim on every beat with a quiet pad (a calm passage: little energy);
 * and every bar starts with a crash-like accent and a bass note on the one.
 */

import { mulberry32 } from '@mocap/motion';

export type Pattern = 'rock' | 'four' | 'half' | 'calm';

export interface Section {
  bars: number;
  bpm: number;
  /** Tempo at the end of the section (linear change of the beat period); default = `bpm`. */
  bpmEnd?: number;
  pattern: Pattern;
  /** Loudness factor, default 1. */
  level?: number;
}

export interface TrackSpec {
  name: string;
  sections: Section[];
  seed?: number;
}

export interface TestTrack {
  name: string;
  samples: Float32Array;
  sampleRate: number;
  /** True beat times, seconds. */
  beats: number[];
  /** Indices into `beats` of bar starts. */
  downbeats: number[];
  /** Section boundaries: start/end time and nominal tempo. */
  sections: { start: number; end: number; bpm: number; bpmEnd: number; pattern: Pattern }[];
}

/** Renders a track at `sampleRate` (default 22050 Hz). */
export function renderTrack(spec: TrackSpec, sampleRate = 22050): TestTrack {
  const rand = mulberry32(spec.seed ?? 7);
  // Beat grid.
  const beats: number[] = [];
  const downbeats: number[] = [];
  const levels: number[] = [];
  const patterns: Pattern[] = [];
  const sections: TestTrack['sections'] = [];
  let t = 0.5;
  for (const s of spec.sections) {
    const n = s.bars * 4;
    const p0 = 60 / s.bpm;
    const p1 = 60 / (s.bpmEnd ?? s.bpm);
    const start = t;
    for (let i = 0; i < n; i++) {
      if (i % 4 === 0) downbeats.push(beats.length);
      beats.push(t);
      levels.push(s.level ?? 1);
      patterns.push(s.pattern);
      t += p0 + ((p1 - p0) * (i + 0.5)) / n;
    }
    sections.push({ start, end: t, bpm: s.bpm, bpmEnd: s.bpmEnd ?? s.bpm, pattern: s.pattern });
  }
  const total = t + 1.0;
  const N = Math.ceil(total * sampleRate);
  const out = new Float32Array(N);
  const noise = (): number => rand() * 2 - 1;
  const addAt = (time: number, dur: number, gen: (u: number, i: number) => number) => {
    const a = Math.round(time * sampleRate);
    const len = Math.round(dur * sampleRate);
    for (let i = 0; i < len && a + i < N; i++) out[a + i] += gen(i / sampleRate, i);
  };
  const kick = (time: number, g: number) => {
    let phase = 0;
    addAt(time, 0.35, (u) => {
      const f = 50 + 100 * Math.exp(-u / 0.03);
      phase += (2 * Math.PI * f) / sampleRate;
      return g * 0.9 * Math.sin(phase) * Math.exp(-u / 0.12);
    });
  };
  const snare = (time: number, g: number) => {
    addAt(
      time,
      0.25,
      (u) =>
        g *
        (0.45 * noise() * Math.exp(-u / 0.06) + 0.3 * Math.sin(2 * Math.PI * 190 * u) * Math.exp(-u / 0.05)),
    );
  };
  const hat = (time: number, g: number, open = false) => {
    let last = 0;
    addAt(time, open ? 0.2 : 0.06, (u) => {
      const x = noise();
      const y = x - last; // first difference: a crude high-pass
      last = x;
      return g * 0.12 * y * Math.exp(-u / (open ? 0.07 : 0.018));
    });
  };
  const rim = (time: number, g: number) => {
    addAt(time, 0.05, (u) => g * 0.25 * Math.sin(2 * Math.PI * 1700 * u) * Math.exp(-u / 0.012));
  };
  const crash = (time: number, g: number) => {
    let last = 0;
    addAt(time, 1.2, (u) => {
      const x = noise();
      const y = x - 0.5 * last;
      last = x;
      return g * 0.1 * y * Math.exp(-u / 0.35);
    });
  };
  const tone = (time: number, dur: number, f: number, g: number, attack = 0.01) => {
    addAt(time, dur, (u) => {
      const env = Math.min(1, u / attack) * Math.exp(-u / (dur * 0.6));
      return g * env * (Math.sin(2 * Math.PI * f * u) + 0.3 * Math.sin(4 * Math.PI * f * u));
    });
  };
  const bassNotes = [55, 55, 65.4, 49];
  const padChords = [
    [220, 277.2, 329.6],
    [196, 246.9, 293.7],
    [174.6, 220, 261.6],
    [196, 246.9, 311.1],
  ];
  for (let i = 0; i < beats.length; i++) {
    const b = beats[i];
    const next = beats[i + 1] ?? b + (b - beats[i - 1]);
    const half = (b + next) / 2;
    const pos = i - (downbeats.filter((d) => d <= i).pop() ?? 0);
    const g = levels[i] * (0.9 + 0.2 * rand());
    const bar = downbeats.filter((d) => d <= i).length - 1;
    const pat = patterns[i];
    if (pos === 0) {
      if (pat !== 'calm') crash(b, g);
      tone(b, Math.min(1.5, (next - b) * 2), bassNotes[bar % 4], 0.25 * g);
      for (const f of padChords[bar % 4]) tone(b, (next - b) * 4, f, (pat === 'calm' ? 0.05 : 0.03) * g, 0.2);
    }
    switch (pat) {
      case 'rock':
        if (pos === 0 || pos === 2) kick(b, g);
        if (pos === 2) kick(half, 0.6 * g);
        if (pos === 1 || pos === 3) snare(b, g);
        hat(b, g);
        hat(half, 0.7 * g);
        break;
      case 'four':
        kick(b, g);
        if (pos === 1 || pos === 3) snare(b, 0.8 * g);
        hat(half, g, true);
        break;
      case 'half':
        if (pos === 0) kick(b, g);
        if (pos === 2) snare(b, g);
        hat(b, g);
        break;
      case 'calm':
        rim(b, 0.5 * g);
        if (pos === 0) kick(b, 0.25 * g);
        break;
    }
  }
  for (let i = 0; i < N; i++) out[i] += 0.002 * noise();
  let peak = 0;
  for (let i = 0; i < N; i++) peak = Math.max(peak, Math.abs(out[i]));
  if (peak > 0.99) for (let i = 0; i < N; i++) out[i] *= 0.99 / peak;
  return { name: spec.name, samples: out, sampleRate, beats, downbeats, sections };
}

/** The standard set of test tracks (steady and changing tempi, 70–180 BPM), each about 40–60 s. */
export const STANDARD_TRACKS: TrackSpec[] = [
  { name: 'steady-70-rock', sections: [{ bars: 16, bpm: 70, pattern: 'rock' }], seed: 1 },
  { name: 'steady-96-half', sections: [{ bars: 20, bpm: 96, pattern: 'half' }], seed: 2 },
  { name: 'steady-128-four', sections: [{ bars: 28, bpm: 128, pattern: 'four' }], seed: 3 },
  { name: 'steady-180-rock', sections: [{ bars: 40, bpm: 180, pattern: 'rock' }], seed: 4 },
  {
    name: 'jump-90-140',
    sections: [
      { bars: 10, bpm: 90, pattern: 'rock' },
      { bars: 16, bpm: 140, pattern: 'four' },
    ],
    seed: 5,
  },
  {
    name: 'ramp-100-160',
    sections: [
      { bars: 6, bpm: 100, pattern: 'four' },
      { bars: 16, bpm: 100, bpmEnd: 160, pattern: 'four' },
      { bars: 8, bpm: 160, pattern: 'rock' },
    ],
    seed: 6,
  },
  {
    name: 'calm-loud-110',
    sections: [
      { bars: 6, bpm: 110, pattern: 'calm', level: 0.5 },
      { bars: 12, bpm: 110, pattern: 'rock' },
      { bars: 6, bpm: 110, pattern: 'calm', level: 0.5 },
    ],
    seed: 8,
  },
  {
    name: 'slowdown-150-75',
    sections: [
      { bars: 12, bpm: 150, pattern: 'rock' },
      { bars: 8, bpm: 75, pattern: 'half' },
    ],
    seed: 9,
  },
];
