/**
 * Strings of the capture's judgement of its result (issue 15.3): the card's quality line, the preview's timeline
 * strip and warning, the remake dialog's note. Own en/zh tables (`tj`), like the music page's.
 */
import { getLang } from '../lib/i18n.ts';

export const judgeEn = {
  'judge.quality': 'Quality {n}%',
  'judge.qualityTip': 'How sure the capture is of this result over the whole clip',
  'judge.weakOne': '1 weak part',
  'judge.weakMany': '{n} weak parts',
  'judge.unusableChip': 'Unusable',
  'judge.refundedChip': '{n} V refunded',
  'judge.titleOne': 'The capture flagged 1 part of this result (confidence {c}%):',
  'judge.titleMany': 'The capture flagged {n} parts of this result (confidence {c}%):',
  'judge.titleUnusable': 'This result is unusable: weak parts cover {p}% of the clip (confidence {c}%):',
  'judge.range': '{from}–{to} s: {why}',
  'judge.span': '{from}–{to} s',
  'judge.short.lost': 'nobody',
  'judge.short.gap': 'lost',
  'judge.short.weak': 'uncertain',
  'judge.short.jump': 'another person',
  'judge.short.pose': 'impossible pose',
  'judge.short.flip': 'flipped',
  'judge.reason.lost': 'nobody tracked',
  'judge.reason.gap': 'tracking lost for a long stretch',
  'judge.reason.weak': 'uncertain pose',
  'judge.reason.jump': 'the body jumps: another person or a tracking swap',
  'judge.reason.pose': 'impossible pose (limbs stretched or shrunk)',
  'judge.reason.flip': 'the 3D pose flips upside down',
  'judge.refunded': 'Your {n} V coins for this result were given back.',
  'judge.rule':
    'A result is unusable when more than 40% of the clip is weak or its confidence is under 40%; what it cost is then given back automatically.',
  'judge.freeLeft': 'Flagged results give this video free remakes: {left} left.',
  'judge.noneLeft': 'No free remakes left for this video: a remake costs {n} V coins.',
  'judge.remake': 'Remake',
  'judge.strip': 'Confidence along the clip (weak parts marked)',
  'judge.seek': 'Go to {from} s',
  'judge.remakeNote': 'The capture flagged this result: this video has free remakes for it.',
  'judge.notesTitle': 'Notes on how this result was made:',
} as const;

export type JudgeKey = keyof typeof judgeEn;

export const judgeZh: Record<JudgeKey, string> = {
  'judge.quality': '质量 {n}%',
  'judge.qualityTip': '动捕对整段结果的把握程度',
  'judge.weakOne': '1 处薄弱片段',
  'judge.weakMany': '{n} 处薄弱片段',
  'judge.unusableChip': '结果不可用',
  'judge.refundedChip': '已退还 {n} V币',
  'judge.titleOne': '动捕判断本结果有 1 处薄弱片段（整体可信度 {c}%）：',
  'judge.titleMany': '动捕判断本结果有 {n} 处薄弱片段（整体可信度 {c}%）：',
  'judge.titleUnusable': '该结果不可用：薄弱片段占整段的 {p}%（整体可信度 {c}%）：',
  'judge.range': '{from}–{to} 秒：{why}',
  'judge.span': '{from}–{to} 秒',
  'judge.short.lost': '无人',
  'judge.short.gap': '跟丢',
  'judge.short.weak': '不确定',
  'judge.short.jump': '换人',
  'judge.short.pose': '姿态异常',
  'judge.short.flip': '翻转',
  'judge.reason.lost': '未跟踪到人物',
  'judge.reason.gap': '长时间跟丢人物',
  'judge.reason.weak': '姿态不确定',
  'judge.reason.jump': '人物跳变：可能是另一个人或跟踪错位',
  'judge.reason.pose': '不可能的姿态（肢体被拉长或缩短）',
  'judge.reason.flip': '3D 姿态上下翻转',
  'judge.refunded': '本结果花费的 {n} V币已退还。',
  'judge.rule': '超过 40% 的片段薄弱或整体可信度低于 40% 时，结果视为不可用，所花费的 V币将自动退还。',
  'judge.freeLeft': '被标记的结果会为该视频赠送免费制作次数：剩余 {left} 次。',
  'judge.noneLeft': '您的视频免费制作次数已用完，重新制作需要 {n} V币。',
  'judge.remake': '重新制作',
  'judge.strip': '沿时间轴的可信度（已标出薄弱片段）',
  'judge.seek': '跳到 {from} 秒',
  'judge.remakeNote': '动捕标记了该结果：该视频因此获得了免费制作次数。',
  'judge.notesTitle': '本结果的制作说明：',
};

export function tj(key: JudgeKey, vars?: Record<string, string | number>): string {
  const s: string = getLang() === 'zh' ? judgeZh[key] : judgeEn[key];
  return vars ? s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s;
}
