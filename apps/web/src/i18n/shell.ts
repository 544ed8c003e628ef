/** Strings of the first-use tour and the community panel (issue 25). */
import { translate } from '../lib/i18n.ts';

export const shellEn = {
  'tour.label': 'Getting started',
  'tour.step': 'Step {n} of {total}',
  'tour.upload.title': 'Upload a video',
  'tour.upload.body':
    'One person, whole body in view, MP4. The motion is captured on our servers: 1 V coin per second.',
  'tour.upload.go': 'Go to upload',
  'tour.preview.title': 'Preview the motion',
  'tour.preview.body':
    'When a card in My projects says made, click its picture to play the 3D motion next to your video.',
  'tour.download.title': 'Download',
  'tour.download.body':
    'Use the download button of the card: choose the bone type of your 3D tool and get a zip with the animation files.',
  'tour.next': 'Next',
  'tour.back': 'Back',
  'tour.done': 'Got it',
  'tour.later': 'Later',
  'tour.never': "Don't show again",
  'community.qrHint': 'Scan with your phone',
  'community.open': 'Open link',
  'login.last': 'Last login: {time}',
  'login.first': 'First login to this account',
} as const;

export const shellZh: Record<keyof typeof shellEn, string> = {
  'tour.label': '新手引导',
  'tour.step': '第 {n} 步，共 {total} 步',
  'tour.upload.title': '上传视频',
  'tour.upload.body': '单人、全身入镜的 MP4 视频。动作在服务器上捕捉：每秒 1 V币。',
  'tour.upload.go': '去上传',
  'tour.preview.title': '预览动作',
  'tour.preview.body': '“我的项目”里的卡片显示已完成后，点击卡片画面，即可在视频旁播放 3D 动作。',
  'tour.download.title': '下载',
  'tour.download.body': '点击卡片上的下载按钮：选择你的 3D 软件对应的骨骼类型，下载含动画文件的压缩包。',
  'tour.next': '下一步',
  'tour.back': '上一步',
  'tour.done': '知道了',
  'tour.later': '稍后',
  'tour.never': '不再显示',
  'community.qrHint': '用手机扫码',
  'community.open': '打开链接',
  'login.last': '上次登录：{time}',
  'login.first': '首次登录此账号',
};

export function tsh(key: keyof typeof shellEn, vars?: Record<string, string | number>): string {
  return translate(shellEn, shellZh, key, vars);
}
