/** Strings of the music page (issue 22), spread into en.ts / zh.ts. */
export const musicEn = {
  'menu.music': 'Music → dance',
  'title.music': 'Music to dance',
  'music.title': 'Music to dance',
  'music.lead':
    'Upload a song and get a dance that follows its beats, accents and energy — made from professional motion capture, ready for every bone type.',
  'music.price':
    'Price: 1 V coin per second of music. A new dance for the same song: the first is free, then 1 V per 2 seconds. Your plan allows {sec} s per song.',
  'music.pick': 'Choose a song (WAV, MP3, M4A, OGG, FLAC)',
  'music.name': 'Title (optional, at most 15 characters)',
  'music.upload': 'Upload and dance',
  'music.uploading': 'Uploading… {n}%',
  'music.empty': 'No dances yet: upload a song to start.',
  'music.tempo': '{bpm} BPM',
  'music.preview': 'Play the dance',
  'music.download': 'Download',
  'music.redone': 'New dance',
  'music.redoneConfirm':
    'Make a new dance for this song? The first new dance is free, then 1 V per 2 seconds.',
  'music.delete': 'Delete',
  'music.deleteConfirm': 'Delete this song and its dance?',
  'music.seed': 'dance #{n}',
  'music.credits':
    'Motion: CMU Graphics Lab Motion Capture Database (mocap.cs.cmu.edu), created with funding from NSF EIA-0196217.',
  'music.boneType': 'Bone type',
  'music.previewTitle': '{name} — dance preview',
  'music.tooLong': 'music duration cannot exceed {sec} seconds',
  'music.notAudio': 'Choose an audio file',
  'music.myDances': 'My dances',
  'music.open': 'Open the music page',
} as const;

export const musicZh: Record<keyof typeof musicEn, string> = {
  'menu.music': '音乐生成舞蹈',
  'title.music': '音乐生成舞蹈',
  'music.title': '音乐生成舞蹈',
  'music.lead': '上传一首歌，得到一段跟随节拍、重音与能量的舞蹈——由专业动作捕捉数据生成，支持所有骨骼类型。',
  'music.price':
    '价格：每秒音乐 1 V币。同一首歌重新生成舞蹈：第一次免费，之后每 2 秒 1 V币。你的套餐每首歌最长 {sec} 秒。',
  'music.pick': '选择歌曲（WAV、MP3、M4A、OGG、FLAC）',
  'music.name': '标题（可选，最多 15 个字）',
  'music.upload': '上传并生成舞蹈',
  'music.uploading': '上传中… {n}%',
  'music.empty': '还没有舞蹈：上传一首歌开始吧。',
  'music.tempo': '{bpm} BPM',
  'music.preview': '播放舞蹈',
  'music.download': '下载',
  'music.redone': '重新生成',
  'music.redoneConfirm': '为这首歌重新生成一段舞蹈？第一次免费，之后每 2 秒 1 V币。',
  'music.delete': '删除',
  'music.deleteConfirm': '删除这首歌和它的舞蹈？',
  'music.seed': '舞蹈 #{n}',
  'music.credits':
    '动作数据：CMU 图形实验室动作捕捉数据库（mocap.cs.cmu.edu），由 NSF EIA-0196217 资助建立。',
  'music.boneType': '骨骼类型',
  'music.previewTitle': '{name} — 舞蹈预览',
  'music.tooLong': 'music duration cannot exceed {sec} seconds',
  'music.notAudio': '请选择音频文件',
  'music.myDances': '我的舞蹈',
  'music.open': '打开音乐页面',
};
