/** The image codec of the file slice over sharp (libvips): content probing and WebP conversion. */
import sharp from 'sharp';
import type { ImageCodec, ImageInfo } from '../../modules/file/ports.ts';

const FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);
/** Refuse decompression bombs: 40 megapixels is far above any notice image, avatar or QR code. */
const LIMIT_INPUT_PIXELS = 40_000_000;

export function createImageCodec(): ImageCodec {
  return {
    async probe(bytes) {
      try {
        const m = await sharp(bytes, { limitInputPixels: LIMIT_INPUT_PIXELS }).metadata();
        if (!m.format || !FORMATS.has(m.format) || !m.width || !m.height) return null;
        // Decode it too: a header alone can lie (a truncated or corrupt body fails here).
        await sharp(bytes, { limitInputPixels: LIMIT_INPUT_PIXELS }).raw().toBuffer();
        return { format: m.format as ImageInfo['format'], width: m.width, height: m.pageHeight ?? m.height };
      } catch {
        return null;
      }
    },
    async toWebp(bytes, options = {}) {
      let img = sharp(bytes, { limitInputPixels: LIMIT_INPUT_PIXELS }).rotate();
      if (options.maxSide)
        img = img.resize({
          width: options.maxSide,
          height: options.maxSide,
          fit: 'inside',
          withoutEnlargement: true,
        });
      return img.webp({ quality: options.quality ?? 80 }).toBuffer();
    },
  };
}
