/**
 * `npm run bench -- dance [--seed N] [--runs 3]`: music analysis and dance synthesis on the generated test tracks
 * (`testTracks.STANDARD_TRACKS`: 8 drum tracks, steady 70/96/128/180 BPM, a 90→140 jump, a 100→160 ramp, a
 * 150→75 slow-down, calm-loud-calm at 110), each danced from the shipped CMU library.
 *
 * Per track: beat F-measure of the tracker against the true beats (±70 ms); BAS (AIST++ definition: mean over
 * the dance's kinematic beats of exp(−d²/2σ²), σ = 0.05 s, against the true music beats) overall and per tempo
 * section; as a control, BAS against the true beats shifted by half a beat (what an unsynchronised dance of the
 * same motion scores); foot sliding per contact of the ball of the foot (mean and p95, cm); frames with both
 * feet above 5 cm outside a jump, and frames in jumps; analysis and generation time (best of `--runs`).
 * Then the time to analyse + generate exactly 60 s of music (a 60 s track at 124 BPM), best of `--runs`.
 * Targets (issue 22): beat F ≥ 0.9, BAS ≥ 0.24 (AIST++ ground truth 0.237) overall and per section, sliding
 * ≤ 2 cm, floating frames 0, 60 s generated in ≤ 5 s. The load average is printed: the machine is shared.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import {
  analyzeMusic,
  beatAlignment,
  beatFMeasure,
  clipKinematicBeats,
  clipKinematics,
  decodeLibrary,
  footFigures,
  generateDance,
  prepareLibrary,
  testTracks,
} from '@mocap/dance';

const here = dirname(fileURLToPath(import.meta.url));

export default async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { seed: { type: 'string', default: '1' }, runs: { type: 'string', default: '3' } },
  });
  const seed = Number(values.seed);
  const runs = Math.max(1, Number(values.runs));
  let t = performance.now();
  const lib = decodeLibrary(
    gunzipSync(readFileSync(join(here, '../packages/dance/assets/cmu-dance.mdl.gz'))),
  );
  const prep = prepareLibrary(lib);
  console.log(
    `library: ${lib.clips.length} CMU takes, ${prep.units.length} units, loaded and prepared in ${(performance.now() - t).toFixed(0)} ms (once per process)`,
  );
  const rows: string[][] = [];
  const head = [
    'track',
    'dur s',
    'beat F',
    'BAS',
    'BAS per section',
    'BAS shifted',
    'slide mean/p95 cm',
    'contacts',
    'floating',
    'jump fr',
    'analyse ms',
    'generate ms',
  ];
  const all = {
    f: [] as number[],
    bas: [] as number[],
    sec: [] as number[],
    slide: [] as number[],
    floating: 0,
  };
  for (const spec of testTracks.STANDARD_TRACKS) {
    const track = testTracks.renderTrack(spec);
    let tA = Number.POSITIVE_INFINITY;
    let tG = Number.POSITIVE_INFINITY;
    let analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
    let dance = generateDance(analysis, prep, { seed });
    for (let r = 0; r < runs; r++) {
      t = performance.now();
      analysis = analyzeMusic({ samples: track.samples, sampleRate: track.sampleRate });
      tA = Math.min(tA, performance.now() - t);
      t = performance.now();
      dance = generateDance(analysis, prep, { seed });
      tG = Math.min(tG, performance.now() - t);
    }
    const k = clipKinematics(dance.clip);
    const kb = clipKinematicBeats(k);
    const f = beatFMeasure(track.beats, analysis.beats);
    const bas = beatAlignment(kb, track.beats);
    const per = track.sections.map((s) => beatAlignment(kb, track.beats, { from: s.start, to: s.end }));
    const meanPeriod = (track.beats.at(-1)! - track.beats[0]) / (track.beats.length - 1);
    const shifted = beatAlignment(
      kb,
      track.beats.map((b, i) => b + ((track.beats[i + 1] ?? b + meanPeriod) - b) / 2),
    );
    const feet = footFigures(k, dance.clip);
    all.f.push(f);
    all.bas.push(bas);
    all.sec.push(...per);
    all.slide.push(feet.slideMeanCm);
    all.floating += feet.floatingFrames;
    rows.push([
      spec.name,
      analysis.duration.toFixed(1),
      f.toFixed(3),
      bas.toFixed(3),
      per
        .map(
          (x, i) =>
            `${track.sections[i].bpm}${track.sections[i].bpmEnd !== track.sections[i].bpm ? `→${track.sections[i].bpmEnd}` : ''}:${x.toFixed(2)}`,
        )
        .join(' '),
      shifted.toFixed(3),
      `${feet.slideMeanCm.toFixed(2)}/${feet.slideP95Cm.toFixed(2)}`,
      String(feet.contacts),
      String(feet.floatingFrames),
      String(feet.jumpFrames),
      tA.toFixed(0),
      tG.toFixed(0),
    ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
  const min = (xs: number[]) => Math.min(...xs);
  const max = (xs: number[]) => Math.max(...xs);
  console.log(
    `\nworst: beat F ${min(all.f).toFixed(3)} (target ≥ 0.9), BAS ${min(all.bas).toFixed(3)} / per section ${min(all.sec).toFixed(3)} (target ≥ 0.24), sliding ${max(all.slide).toFixed(2)} cm (≤ 2), floating frames ${all.floating} (0)`,
  );
  // 60 s of music, end to end (analysis + generation).
  const sixty = testTracks.renderTrack({ name: '60s', sections: [{ bars: 31, bpm: 124, pattern: 'rock' }] });
  const samples = sixty.samples.subarray(0, 60 * sixty.sampleRate);
  let best = { a: Number.POSITIVE_INFINITY, g: Number.POSITIVE_INFINITY, total: Number.POSITIVE_INFINITY };
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const analysis = analyzeMusic({ samples, sampleRate: sixty.sampleRate });
    const t1 = performance.now();
    generateDance(analysis, prep, { seed: seed + r });
    const t2 = performance.now();
    if (t2 - t0 < best.total) best = { a: t1 - t0, g: t2 - t1, total: t2 - t0 };
  }
  console.log(
    `60 s of music: analysis ${best.a.toFixed(0)} ms + generation ${best.g.toFixed(0)} ms = ${(best.total / 1000).toFixed(2)} s (target ≤ 5 s; best of ${runs})`,
  );
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (2 cores, shared)`,
  );
}
