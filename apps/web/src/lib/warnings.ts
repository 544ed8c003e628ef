/**
 * The capture's notes about a result (the solver's and the tracker's warnings, written in English by the
 * worker) in the user's language. Known sentences are translated by pattern; an unknown one is shown as sent.
 */
import { getLang } from './i18n.ts';

const ZH: [RegExp, string][] = [
  [/^focal length unknown: assumed a (\d+)° horizontal field of view$/, '焦距未知：按 $1° 水平视角计算'],
  [/^floor raised by (\d+) cm to the feet$/, '地面抬高 $1 厘米以贴合双脚'],
  [/^(\d+) frames?: hips lowered to bring a floating foot to the floor$/, '$1 帧：降低髋部，让悬空的脚落地'],
  [/^(\d+) frames?: hips raised to keep the feet above the floor$/, '$1 帧：抬高髋部，让双脚不穿过地面'],
  [/^(\d+) frames? with the left and right legs swapped were relabelled$/, '$1 帧左右腿识别颠倒，已纠正'],
  [/^(\d+) of (\d+) frames without a body were interpolated$/, '$2 帧中有 $1 帧未识别到人物，已插值补全'],
  [
    /^no foot contacts found: floor set at the lowest foot positions$/,
    '未识别到脚着地：地面设在脚的最低位置',
  ],
  [
    /^the video has (\d+) frames per second: motion was tracked at (\d+) fps$/,
    '视频为每秒 $1 帧：动作按每秒 $2 帧识别',
  ],
  [/^the person was found on only (\d+) % of the frames$/, '仅在 $1% 的帧中识别到人物'],
  [/^nobody was found in the video$/, '视频中没有识别到人物'],
  [/^the video has no decodable frames$/, '视频没有可解码的画面'],
  [
    /^The video stream has no timestamps: a constant frame rate is assumed\.$/,
    '视频流没有时间戳：按恒定帧率处理。',
  ],
  [/^(\d+) video streams: using the first \(#(\d+)\)\.$/, '共有 $1 路视频流：使用第一路（#$2）。'],
  [
    /^The first frame is not a key frame: the frames before the first key frame may not decode\.$/,
    '第一帧不是关键帧：第一个关键帧之前的画面可能无法解码。',
  ],
];

/** One warning in the current language. */
export function localiseWarning(w: string): string {
  if (getLang() !== 'zh') return w;
  for (const [re, zh] of ZH) {
    if (re.test(w)) return w.replace(re, zh);
  }
  return w;
}
