/**
 * The duration of an MP4's video track, read from its boxes (moov → trak with a 'vide' handler → mdhd), as the
 * server's probe measures it. A browser's <video> reports the longest track instead: a 10.000 s video with
 * 10.008 s of audio read as 10.008 s, showed 11 V and was charged 10 V. Null when the file is not a readable MP4.
 */

interface Box {
  type: string;
  start: number;
  size: number;
  header: number;
}

function boxesIn(view: DataView, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + at + 4, 4));
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    out.push({ type, start: at, size, header });
    at += size;
  }
  return out;
}

/** The video track's seconds from a `moov` box's bytes, or null. */
export function videoSecondsFromMoov(moov: Uint8Array): number | null {
  const view = new DataView(moov.buffer, moov.byteOffset, moov.byteLength);
  for (const trak of boxesIn(view, 0, moov.byteLength).filter((b) => b.type === 'trak')) {
    const mdia = boxesIn(view, trak.start + trak.header, trak.start + trak.size).find(
      (b) => b.type === 'mdia',
    );
    if (!mdia) continue;
    const inner = boxesIn(view, mdia.start + mdia.header, mdia.start + mdia.size);
    const hdlr = inner.find((b) => b.type === 'hdlr');
    const mdhd = inner.find((b) => b.type === 'mdhd');
    if (!hdlr || !mdhd) continue;
    const handler = String.fromCharCode(
      ...new Uint8Array(view.buffer, view.byteOffset + hdlr.start + hdlr.header + 8, 4),
    );
    if (handler !== 'vide') continue;
    const p = mdhd.start + mdhd.header;
    const version = view.getUint8(p);
    const timescale = version === 1 ? view.getUint32(p + 20) : view.getUint32(p + 12);
    const duration = version === 1 ? Number(view.getBigUint64(p + 24)) : view.getUint32(p + 16);
    if (timescale > 0 && duration > 0) return duration / timescale;
  }
  return null;
}

/** Reads the top-level boxes of `file` (headers only) and its `moov` (at most 64 MB) for the video's seconds. */
export async function mp4VideoSeconds(file: Blob): Promise<number | null> {
  try {
    let at = 0;
    for (let i = 0; i < 64 && at + 8 <= file.size; i++) {
      const head = new DataView(await file.slice(at, at + 16).arrayBuffer());
      let size = head.getUint32(0);
      const type = String.fromCharCode(
        head.getUint8(4),
        head.getUint8(5),
        head.getUint8(6),
        head.getUint8(7),
      );
      let header = 8;
      if (size === 1 && head.byteLength >= 16) {
        size = Number(head.getBigUint64(8));
        header = 16;
      } else if (size === 0) size = file.size - at;
      if (size < header) return null;
      if (type === 'moov') {
        if (size > 64 * 1024 * 1024) return null;
        const moov = new Uint8Array(await file.slice(at + header, at + size).arrayBuffer());
        return videoSecondsFromMoov(moov);
      }
      at += size;
    }
  } catch {
    /* not an MP4 we can read: the caller keeps the browser's duration */
  }
  return null;
}
