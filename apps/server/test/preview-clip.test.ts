import { describe, expect, it } from 'vitest';
import { PREVIEW_FPS, previewClipDoc } from '../src/modules/motion/service.ts';

/** The preview-grade copy of a solved clip (buyers-to-be see it in the viewer). */
describe('preview-grade clip', () => {
  const frames = Array.from({ length: 60 }, (_, f) => ({
    time: f / 60,
    rootPosition: [0, 1.8, 0],
    rotations: [0, 0, 0, 1],
    positions: [0, 1.8, 0],
    support: f < 30 ? 0.81234 : 0,
  }));
  it('keeps the raised ground under the feet, rounded, at the preview rate', () => {
    const doc = previewClipDoc({ fps: 60, frameCount: 60, frames });
    expect(doc.fps).toBeLessThanOrEqual(PREVIEW_FPS);
    expect(doc.frames[0].support).toBe(0.812);
    expect(doc.frames.at(-1)?.support).toBe(0);
    expect(doc.frames.every((f) => typeof f.support === 'number')).toBe(true);
  });
  it('adds none to a clip on the floor', () => {
    const flat = previewClipDoc({
      fps: 60,
      frameCount: 60,
      frames: frames.map(({ support: _s, ...f }) => f),
    });
    expect(flat.frames.some((f) => 'support' in f)).toBe(false);
  });
});
