/**
 * The motions a lab page can use: my made captures, my music dances and the library animations I bought (the
 * digital-human page's list, `GET /tomokage/motions`), their clips (signed URLs of the mocap-motion JSON) and their
 * bone-type zips (DownLoadMotion, DownLoadMusicMotion, the library download — free for what is mine or bought).
 */
import type { MusicUrls, TomokageMotion } from '@mocap/contracts';
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { api } from '../../lib/api.ts';

/** A motion of `GET /tomokage/motions` (the contract's). */
export type LabMotion = TomokageMotion;

export const labMotions = (): Promise<LabMotion[]> => api.get<LabMotion[]>('/tomokage/motions');

export const motionKey = (m: LabMotion): string => `${m.kind}:${m.id}`;

/** Signed URL of a motion's clip (mocap-motion JSON). */
export async function clipUrlOf(m: LabMotion): Promise<string> {
  if (m.kind === 'video') return (await api.get<{ url: string }>(`/motion/video/${m.id}/clip_url`)).url;
  if (m.kind === 'music') {
    const u = await api.get<MusicUrls>(`/music/cos_url/${m.id}`);
    if (!u.clip) throw new Error('no clip');
    return u.clip;
  }
  return (await api.get<{ clip: string }>(`/animation/${m.id}`)).clip;
}

/** Signed URL and file name of one bone type's zip of a motion. */
export async function zipOf(m: LabMotion, boneType: string): Promise<{ url: string; name: string }> {
  const path =
    m.kind === 'video'
      ? `/motion/download/0/${m.id}/${boneType}`
      : m.kind === 'music'
        ? `/music/download/0/${m.id}/${boneType}`
        : `/animation/download/0/${m.id}/${boneType}`;
  const d = await api.get<{ paths: string[]; motionsName?: string[] }>(path);
  if (!d.paths?.[0]) throw new Error('此视频无该文件');
  return { url: d.paths[0], name: d.motionsName?.[0] ?? `${m.name}_${boneType}.zip` };
}

/** The first file of a zip whose name ends with `ext`. */
export async function fileFromZip(url: string, ext: string): Promise<{ name: string; bytes: Uint8Array }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const name = Object.keys(files).find((n) => n.toLowerCase().endsWith(ext));
  if (!name) throw new Error(`no ${ext} in the zip`);
  return { name, bytes: files[name]! };
}
