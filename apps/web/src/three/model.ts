/**
 * Our character as the product ships it: the bone type's zip (skinned FBX + textures, from the exporters) is
 * unpacked in the browser, the FBX parsed by three.js's FBXLoader with the zip's textures, scaled to metres with
 * the feet on the floor. The animation inside is the captured clip.
 */
import * as THREE from 'three';
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';

export interface LoadedModel {
  root: THREE.Group;
  clip: THREE.AnimationClip | null;
  /** Metres per model unit applied. */
  scale: number;
  /** False for skeleton-only rigs (most engine rigs): the viewer then draws the bones. */
  hasMesh: boolean;
  dispose: () => void;
}

const IMAGE = /\.(png|jpe?g|tga|bmp|webp)$/i;
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** Unpacks a bone-type zip and loads its first FBX with the zip's textures. */
export function loadModelFromZip(zip: Uint8Array): LoadedModel {
  const files = unzipSync(zip);
  const names = Object.keys(files);
  const fbxName = names.find((n) => /\.fbx$/i.test(n));
  if (!fbxName) throw new Error('no FBX in the zip');
  const urls = new Map<string, string>();
  for (const n of names.filter((x) => IMAGE.test(x))) {
    const ext = n.split('.').pop()!.toLowerCase();
    const data = files[n];
    const blob = new Blob([new Uint8Array(data)], { type: MIME[ext] ?? 'application/octet-stream' });
    urls.set(n.split('/').pop()!.toLowerCase(), URL.createObjectURL(blob));
  }
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => urls.get(url.split(/[\\/]/).pop()!.toLowerCase()) ?? url);
  const fbx = files[fbxName];
  const buffer = fbx.buffer.slice(fbx.byteOffset, fbx.byteOffset + fbx.byteLength) as ArrayBuffer;
  const root = new FBXLoader(manager).parse(buffer, '');
  let hasMesh = false;
  root.traverse((o) => {
    if ((o as THREE.Mesh).isMesh) {
      hasMesh = true;
      o.castShadow = true;
      o.receiveShadow = false;
      (o as THREE.Mesh).frustumCulled = false;
    }
  });
  // Units: scale the rest-pose height to a person (exporters write cm for most rigs).
  root.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(root);
  if (box.isEmpty()) {
    // A skeleton-only rig: measure its bones.
    const p = new THREE.Vector3();
    root.traverse((o) => {
      if ((o as THREE.Bone).isBone) box.expandByPoint(o.getWorldPosition(p));
    });
  }
  const h = box.isEmpty() ? 0 : box.max.y - box.min.y;
  const scale = h > 10 ? 0.01 : 1;
  root.scale.multiplyScalar(scale);
  return {
    root,
    clip: root.animations[0] ?? null,
    scale,
    hasMesh,
    dispose: () => {
      for (const u of urls.values()) URL.revokeObjectURL(u);
      root.traverse((o) => {
        const m = o as THREE.Mesh;
        if (m.isMesh) {
          m.geometry.dispose();
          for (const mat of Array.isArray(m.material) ? m.material : [m.material]) mat.dispose();
        }
      });
    },
  };
}
