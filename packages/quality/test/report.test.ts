import { describe, expect, it } from 'vitest';
import {
  aggregate,
  type ClipResult,
  compareSummaries,
  metricTable,
  type Summary,
  summarize,
  targetLines,
} from '../src/index.ts';

const clip = (
  id: string,
  frames: number,
  paMpjpe: number,
  sliding: number,
  contactPairs: number,
): ClipResult => ({
  id,
  kind: 'rendered',
  motion: 'walk',
  character: 'x',
  frames,
  fps: 30,
  raw: { paMpjpe: paMpjpe * 2, sliding: sliding * 10, coverage: 100 },
  solved: { paMpjpe, sliding, rte: 1.5, coverage: 100 },
  contactPairs,
  notes: [],
});

describe('report', () => {
  it('aggregates frame-weighted, sliding weighted by contact pairs', () => {
    const rs = [clip('a', 100, 40, 1, 10), clip('b', 300, 60, 5, 30)];
    const s = aggregate(rs, (r) => r.solved);
    expect(s.paMpjpe).toBeCloseTo((40 * 100 + 60 * 300) / 400, 9);
    expect(s.sliding).toBeCloseTo((1 * 10 + 5 * 30) / 40, 9);
  });
  it('flags metrics more than 5 % worse, in the right direction', () => {
    const prev = summarize([clip('a', 100, 40, 1, 10)]);
    const same = summarize([clip('a', 100, 41, 1, 10)]);
    expect(compareSummaries(prev, same)).toEqual([]);
    const worse = summarize([clip('a', 100, 43, 1, 10)]);
    const flagged = compareSummaries(prev, worse);
    expect(flagged.some((l) => l.startsWith('rendered solved PA-MPJPE'))).toBe(true);
    expect(flagged.some((l) => l.startsWith('rendered raw PA-MPJPE'))).toBe(true); // 80 → 86
    const lowerCoverage: Summary = summarize([
      { ...clip('a', 100, 40, 1, 10), solved: { paMpjpe: 40, sliding: 1, rte: 1.5, coverage: 90 } },
    ]);
    expect(compareSummaries(prev, lowerCoverage)).toEqual([
      'rendered solved coverage %: 100 → 90 (10.0 % worse)',
    ]);
    // Better is never flagged.
    expect(compareSummaries(worse, prev)).toEqual([]);
  });
  it('states the targets with their margins', () => {
    const lines = targetLines(summarize([clip('a', 100, 50, 3, 10)]));
    expect(lines[0]).toBe('- met: rendered PA-MPJPE ≤ 60 mm: 50.0 mm');
    expect(lines[1]).toContain('met: rendered foot sliding ≤ 5 mm: 3.00 mm');
    expect(lines[2]).toContain('met: rendered RTE');
    const worse = targetLines(summarize([clip('a', 100, 70, 8, 10)]));
    expect(worse[0]).toContain('**missed**: rendered PA-MPJPE ≤ 60 mm: 70.0 mm');
    expect(worse[1]).toContain('**missed**: rendered foot sliding');
  });
  it('renders a markdown table with dashes for missing values', () => {
    const t = metricTable([['solved', { paMpjpe: 12.345 }]], ['paMpjpe', 'rte']);
    expect(t.split('\n')).toEqual(['| | PA-MPJPE mm | RTE % |', '|---|---:|---:|', '| solved | 12.3 | – |']);
  });
});
