/**
 * The render page (runs in headless Chromium, driven by `src/render.ts`): a rigged character on a textured,
 * lit floor, posed frame by frame at exact times (never real time), rendered with three.js (software WebGL),
 * each frame's pixels posted to the local server as raw RGB, and the ground truth returned: world positions
 * of the rig's mapped joints and the camera's view matrix.
 *
 * Motions: the character's own animation clip (in-place cycles get root motion from the stance foot so feet
 * do not slide), or a BVH clip retargeted onto the rig (rest-pose aware, see `buildRetarget`).
 *
 * API on `window.mocap`: `inspect(url)`, `setup(spec)` → info, `frame(i)` → { joints, view }.
 */
import * as THREE from 'three';
import { BVHLoader } from 'three/addons/loaders/BVHLoader.js';
import { FBXLoader } from 'three/addons/loaders/FBXLoader.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const V3 = THREE.Vector3;
const Q = THREE.Quaternion;
const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function loadCharacter(url) {
  if (url.toLowerCase().endsWith('.fbx')) {
    const obj = await new FBXLoader().loadAsync(url);
    return { root: obj, animations: obj.animations };
  }
  const g = await new GLTFLoader().loadAsync(url);
  return { root: g.scene, animations: g.animations };
}

function bonesOf(root) {
  const out = [];
  root.traverse((o) => {
    if (o.isBone) out.push(o);
  });
  return out;
}

/** role → bone, from candidate names (compared without case and punctuation). */
function resolveRoles(root, roles) {
  const byName = new Map();
  root.traverse((o) => {
    if (o.isBone || o.type === 'Object3D' || o.isGroup) {
      const k = norm(o.name);
      if (k && !byName.has(k)) byName.set(k, o);
    }
  });
  const out = {};
  for (const [role, names] of Object.entries(roles)) {
    for (const n of names) {
      const b = byName.get(norm(n));
      if (b) {
        out[role] = b;
        break;
      }
    }
  }
  return out;
}

const wpos = (o) => o.getWorldPosition(new V3());
const wquat = (o) => o.getWorldQuaternion(new Q());

/** The topmost bone above (or at) `b`. */
function topBone(b) {
  let t = b;
  while (t.parent?.isBone) t = t.parent;
  return t;
}

/** Whether bone `b` hangs (directly or not) from `a`. */
function isBelow(b, a) {
  for (let p = b.parent; p; p = p.parent) if (p === a) return true;
  return false;
}

/** Orthonormal basis (as a quaternion) from a primary direction and a secondary one. */
function basis(primary, secondary) {
  const x = primary.clone().normalize();
  const z = new V3().crossVectors(x, secondary).normalize();
  const y = new V3().crossVectors(z, x);
  return new Q().setFromRotationMatrix(new THREE.Matrix4().makeBasis(x, y, z));
}

const CHILD = {
  hips: 'neck',
  spine: 'chest',
  chest: 'neck',
  neck: 'head',
  shoulderL: 'upperArmL',
  shoulderR: 'upperArmR',
  upperArmL: 'forearmL',
  upperArmR: 'forearmR',
  forearmL: 'handL',
  forearmR: 'handR',
  thighL: 'shinL',
  thighR: 'shinR',
  shinL: 'footL',
  shinR: 'footR',
  footL: 'toeL',
  footR: 'toeR',
};
/** Roles without a child use their parent role's direction. */
const PARENT_DIR = { head: 'neck', handL: 'forearmL', handR: 'forearmR', toeL: 'footL', toeR: 'footR' };
const ARM = /^(shoulder|upperArm|forearm|hand)/;
const ORDER = [
  'hips',
  'spine',
  'chest',
  'neck',
  'head',
  'shoulderL',
  'upperArmL',
  'forearmL',
  'handL',
  'shoulderR',
  'upperArmR',
  'forearmR',
  'handR',
  'thighL',
  'shinL',
  'footL',
  'toeL',
  'thighR',
  'shinR',
  'footR',
  'toeR',
];

/**
 * Rest-pose-aware retargeting of a source skeleton (BVH) onto a target rig. For every role mapped in both,
 * a constant correction C maps the target's rest bone frame onto the source's bone frame in a reference
 * pose (bone direction + the body's lateral axis, or its forward axis for arms), so rigs in A-pose and
 * T-pose agree: `targetWorld(t) = sourceWorld(t) · sourceWorld(ref)⁻¹ · C · targetRestWorld`. Unmapped
 * target bones keep their rest local rotation. The target must be in its rest pose and the source in the
 * reference pose (the clip's first frame: bone twists there are taken as neutral) when this is called.
 */
function buildRetarget(src, tgt) {
  const dirOf = (m, role) => {
    const r = CHILD[role] ? role : PARENT_DIR[role];
    const c = r && CHILD[r];
    if (!r || !c || !m[r] || !m[c]) return null;
    return wpos(m[c]).sub(wpos(m[r]));
  };
  const lateral = (m) => wpos(m.thighL).sub(wpos(m.thighR));
  const up = new V3(0, 1, 0);
  const items = [];
  for (const role of ORDER) {
    if (!src[role] || !tgt[role]) continue;
    const dS = dirOf(src, role) ?? up.clone();
    const dT = dirOf(tgt, role) ?? up.clone();
    const lS = lateral(src);
    const lT = lateral(tgt);
    const sS = ARM.test(role) ? new V3().crossVectors(lS, up) : lS;
    const sT = ARM.test(role) ? new V3().crossVectors(lT, up) : lT;
    const C = basis(dS, sS).multiply(basis(dT, sT).invert());
    // A thigh hung from the armature root instead of the hips (the Quaternius modular rigs) keeps its rest
    // place on the pelvis: otherwise it stays where the rest pose put it while the pelvis turns.
    let hipsLocal = null;
    if (role.startsWith('thigh') && tgt.hips && !isBelow(tgt[role], tgt.hips))
      hipsLocal = tgt.hips.worldToLocal(wpos(tgt[role]));
    items.push({
      role,
      s: src[role],
      t: tgt[role],
      S0inv: wquat(src[role]).invert(),
      C,
      T0: wquat(tgt[role]),
      hipsLocal,
    });
  }
  return (hipsTarget) => {
    for (const it of items) {
      const W = wquat(it.s).multiply(it.S0inv).multiply(it.C).multiply(it.T0);
      const parentW = it.t.parent ? wquat(it.t.parent) : new Q();
      if (it.hipsLocal)
        it.t.position.copy(it.t.parent.worldToLocal(tgt.hips.localToWorld(it.hipsLocal.clone())));
      it.t.quaternion.copy(parentW.invert().multiply(W));
      it.t.updateMatrixWorld(true);
      if (it.role === 'hips' && hipsTarget) {
        // Translate the topmost bone: some rigs hang the legs from the armature root, not from the hips
        // (the Quaternius modular women), so moving the hips bone alone would leave the legs behind.
        const top = topBone(it.t);
        const delta = hipsTarget.clone().sub(wpos(it.t));
        top.position.copy(top.parent.worldToLocal(wpos(top).add(delta)));
        top.updateMatrixWorld(true);
      }
    }
  };
}

/** A procedural floor texture (tiles with noise), deterministic from the seed. */
function floorTexture(rand, colors) {
  const c = document.createElement('canvas');
  c.width = 512;
  c.height = 512;
  const g = c.getContext('2d');
  const n = 8;
  const s = c.width / n;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const base = (i + j) % 2 ? colors[0] : colors[1];
      const k = 0.9 + 0.2 * rand();
      g.fillStyle = `rgb(${base.map((v) => Math.min(255, Math.round(v * k))).join(',')})`;
      g.fillRect(i * s, j * s, s, s);
    }
  }
  g.globalAlpha = 0.08;
  for (let k = 0; k < 3000; k++) {
    g.fillStyle = rand() < 0.5 ? '#000' : '#fff';
    g.fillRect(rand() * c.width, rand() * c.height, 1 + rand() * 3, 1 + rand() * 3);
  }
  g.globalAlpha = 0.35;
  g.strokeStyle = '#222';
  for (let i = 0; i <= n; i++) {
    g.beginPath();
    g.moveTo(i * s, 0);
    g.lineTo(i * s, c.height);
    g.moveTo(0, i * s);
    g.lineTo(c.width, i * s);
    g.stroke();
  }
  const tex = new THREE.CanvasTexture(c);
  tex.wrapS = THREE.RepeatWrapping;
  tex.wrapT = THREE.RepeatWrapping;
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.anisotropy = 4;
  return tex;
}

/**
 * Facial features for a featureless head (the X Bot's is a smooth egg): without eyes, nose and ears
 * BlazePose cannot tell the front of the body from the back and swaps left and right in about a fifth of
 * the frames. Eyes, brows, nose, mouth and ears are placed on the head's surface (found by ray casts in the
 * rest pose) and parented to the head bone.
 */
function addFace(model, head, topY) {
  const meshes = [];
  model.traverse((o) => {
    if (o.isMesh) meshes.push(o);
  });
  const ray = new THREE.Raycaster();
  const hit = (from, dir) => {
    ray.set(from, dir.clone().normalize());
    const h = ray.intersectObjects(meshes, false)[0];
    return h ? h.point : null;
  };
  const hp = wpos(head);
  const H = topY - hp.y;
  const at = (x, yk, dir) => {
    const y = hp.y + yk * H;
    return dir === 'front'
      ? hit(new V3(hp.x + x, y, hp.z + 1), new V3(0, 0, -1))
      : hit(new V3(hp.x + Math.sign(x), y, hp.z), new V3(-Math.sign(x), 0, 0));
  };
  const mat = (color, rough = 0.6) => new THREE.MeshStandardMaterial({ color, roughness: rough });
  const add = (geo, material, point, scale) => {
    if (!point) return;
    const m = new THREE.Mesh(geo, material);
    m.castShadow = true;
    head.add(m);
    m.position.copy(head.worldToLocal(point.clone()));
    const ws = head.getWorldScale(new V3());
    m.scale.set(scale[0] / ws.x, scale[1] / ws.y, scale[2] / ws.z);
    m.quaternion.copy(wquat(head).invert());
  };
  const sphere = new THREE.SphereGeometry(1, 16, 12);
  const skin = mat(0xc98f7a);
  for (const sx of [-1, 1]) {
    const eye = at(sx * 0.033, 0.45, 'front');
    add(sphere, mat(0xf2f2f2, 0.3), eye, [0.013, 0.011, 0.007]);
    if (eye) add(sphere, mat(0x1a1410, 0.3), eye.clone().add(new V3(0, 0, 0.006)), [0.006, 0.006, 0.004]);
    const brow = at(sx * 0.033, 0.56, 'front');
    add(new THREE.BoxGeometry(1, 1, 1), mat(0x2b1d14), brow, [0.032, 0.006, 0.008]);
    add(sphere, skin, at(sx, 0.36, 'side'), [0.008, 0.026, 0.017]);
  }
  const nose = at(0, 0.33, 'front');
  add(sphere, skin, nose, [0.011, 0.016, 0.02]);
  add(new THREE.BoxGeometry(1, 1, 1), mat(0x7a2e2a), at(0, 0.2, 'front'), [0.036, 0.007, 0.008]);
}

let S = null;

async function inspect(url) {
  const { root, animations } = await loadCharacter(url);
  root.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(root);
  const meshes = [];
  root.traverse((o) => {
    if (o.isMesh) {
      const mats = Array.isArray(o.material) ? o.material : [o.material];
      meshes.push({
        name: o.name,
        skinned: !!o.isSkinnedMesh,
        materials: mats.map((m) => ({ type: m.type, color: m.color?.getHexString(), map: !!m.map })),
      });
    }
  });
  return {
    bones: bonesOf(root).map((b) => ({ name: b.name, parent: b.parent?.name, pos: wpos(b).toArray() })),
    animations: animations.map((a) => ({ name: a.name, duration: a.duration, tracks: a.tracks.length })),
    box: [box.min.toArray(), box.max.toArray()],
    meshes,
  };
}

/** Character height from its skinned vertices in the rest pose (bounding boxes of skinned meshes can lie). */
function restBox(root) {
  const box = new THREE.Box3();
  const v = new V3();
  root.updateMatrixWorld(true);
  root.traverse((o) => {
    if (!o.isMesh) return;
    const pos = o.geometry.attributes.position;
    for (let i = 0; i < pos.count; i++) {
      v.fromBufferAttribute(pos, i);
      if (o.isSkinnedMesh) o.applyBoneTransform(i, v);
      v.applyMatrix4(o.matrixWorld);
      box.expandByPoint(v);
    }
  });
  return box;
}

async function setup(spec) {
  const { width, height, fps, frames } = spec;
  const rand = mulberry32(spec.seed);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.appendChild(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(width, height, false);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  const scene = new THREE.Scene();
  const sky = new THREE.Color().setHSL(0.55 + 0.1 * rand(), 0.25, 0.72 + 0.1 * rand());
  scene.background = sky;
  scene.fog = new THREE.Fog(sky, 25, 60);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x55504a, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  const az = rand() * Math.PI * 2;
  sun.position.set(8 * Math.sin(az), 10, 8 * Math.cos(az));
  sun.castShadow = true;
  sun.shadow.mapSize.set(1024, 1024);
  Object.assign(sun.shadow.camera, { left: -8, right: 8, top: 8, bottom: -8, near: 1, far: 40 });
  sun.shadow.bias = -0.0005;
  scene.add(sun);
  const palettes = [
    [
      [150, 140, 125],
      [120, 112, 100],
    ],
    [
      [110, 125, 140],
      [90, 100, 115],
    ],
    [
      [140, 150, 120],
      [115, 125, 100],
    ],
  ];
  const tex = floorTexture(rand, palettes[Math.floor(rand() * palettes.length)]);
  tex.repeat.set(30, 30);
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(60, 60), new THREE.MeshLambertMaterial({ map: tex }));
  floor.rotation.x = -Math.PI / 2;
  floor.receiveShadow = true;
  scene.add(floor);

  // Character: scaled to the requested standing height, feet on the floor.
  const ch = await loadCharacter(spec.character.url);
  const model = ch.root;
  const holder = new THREE.Group();
  holder.add(model);
  scene.add(holder);
  const b0 = restBox(model);
  const k = spec.character.height / (b0.max.y - b0.min.y);
  model.scale.multiplyScalar(k);
  model.updateMatrixWorld(true);
  const b1 = restBox(model);
  model.position.y -= b1.min.y;
  model.position.x -= (b1.min.x + b1.max.x) / 2;
  model.position.z -= (b1.min.z + b1.max.z) / 2;
  model.traverse((o) => {
    if (o.isMesh) {
      o.castShadow = true;
      o.receiveShadow = true;
      o.frustumCulled = false;
      if (spec.character.material) {
        const mats = Array.isArray(o.material) ? o.material : [o.material];
        for (const m of mats) {
          if (spec.character.material.roughness !== undefined)
            m.roughness = spec.character.material.roughness;
          if (spec.character.material.metalness !== undefined)
            m.metalness = spec.character.material.metalness;
        }
      }
    }
  });
  model.updateMatrixWorld(true);
  const tgt = resolveRoles(model, spec.character.roles);
  if (spec.character.face) addFace(model, tgt.head, b1.max.y - b1.min.y);
  // Ground-truth points: bone origins, or markers fixed to a bone in the rest pose.
  const gtObjects = [];
  for (const g of spec.gtPoints) {
    const bone = resolveRoles(model, { x: g.bone }).x;
    const from = g.from ? resolveRoles(model, { x: g.from }).x : bone;
    if (!bone || !from) throw new Error(`character ${spec.character.url}: no bone for ${g.name} (${g.bone})`);
    if (!g.offset && from === bone) {
      gtObjects.push(bone);
      continue;
    }
    const at = wpos(from).add(new V3(...(g.offset ?? [0, 0, 0])));
    const marker = new THREE.Object3D();
    marker.name = `gt_${g.name}`;
    bone.add(marker);
    marker.position.copy(bone.worldToLocal(at));
    marker.updateMatrixWorld(true);
    gtObjects.push(marker);
  }
  for (const r of ['footL', 'footR', 'thighL', 'thighR', 'hips', 'head']) {
    if (!tgt[r]) throw new Error(`character ${spec.character.url}: no bone for role ${r}`);
  }
  if (!tgt.toeL) tgt.toeL = gtObjects[spec.gtPoints.findIndex((g) => g.name === 'leftToes')];
  if (!tgt.toeR) tgt.toeR = gtObjects[spec.gtPoints.findIndex((g) => g.name === 'rightToes')];
  // Rest heights of the foot joints above the floor (for placing retargeted motion on the floor).
  const restFootY = {};
  for (const r of ['footL', 'footR', 'toeL', 'toeR']) restFootY[r] = wpos(tgt[r]).y;

  // Motion.
  let pose;
  let duration;
  if (spec.motion.kind === 'own') {
    const clip = ch.animations.find((a) => norm(a.name).endsWith(norm(spec.motion.clip)));
    if (!clip)
      throw new Error(`no clip ${spec.motion.clip} in ${ch.animations.map((a) => a.name).join(', ')}`);
    const mixer = new THREE.AnimationMixer(model);
    mixer.clipAction(clip).play();
    duration = clip.duration;
    pose = (t) => {
      mixer.setTime(t);
      model.updateMatrixWorld(true);
    };
  } else {
    const text = await (await fetch(spec.motion.url)).text();
    const bvh = new BVHLoader().parse(text);
    const container = new THREE.Group();
    container.add(bvh.skeleton.bones[0]);
    container.updateMatrixWorld(true);
    const src = resolveRoles(container, spec.motion.roles);
    const need = ['hips', 'thighL', 'thighR', 'head'];
    const lack = need.filter((r) => !src[r]);
    if (lack.length) throw new Error(`BVH ${spec.motion.url}: no joint for ${lack.join(', ')}`);
    // Up axis of the source from its first frame (head above the feet).
    const mixer = new THREE.AnimationMixer(container);
    mixer.clipAction(bvh.clip).play();
    mixer.setTime(spec.motion.start ?? 0);
    container.updateMatrixWorld(true);
    const v = wpos(src.head).sub(wpos(src.footL ?? src.shinL));
    const a = [v.x, v.y, v.z].map(Math.abs);
    const axis = new V3();
    const ai = a.indexOf(Math.max(...a));
    axis.setComponent(ai, Math.sign(v.getComponent(ai)));
    container.quaternion.setFromUnitVectors(axis, new V3(0, 1, 0));
    // Reference pose for the retarget correction: the clip's first frame (a BVH's zero pose can be
    // degenerate: the Bandai Namco skeleton's bones all point along their parent's x axis).
    container.updateMatrixWorld(true);
    const retarget = buildRetarget(src, tgt);
    // Scale: leg length ratio.
    const leg = (m) =>
      wpos(m.thighL).distanceTo(wpos(m.shinL)) + wpos(m.shinL).distanceTo(wpos(m.footL ?? m.shinL));
    const scale = leg(tgt) / leg(src);
    mixer.clipAction(bvh.clip).play();
    duration = bvh.clip.duration;
    // The hips target is expressed in the holder's frame (which only translates): convert on each call.
    pose = (t) => {
      mixer.setTime(t);
      container.updateMatrixWorld(true);
      const h = wpos(src.hips).multiplyScalar(scale);
      retarget(holder.localToWorld(h));
      model.updateMatrixWorld(true);
    };
  }
  const start = spec.motion.start ?? 0;
  const timeOf = (i) => start + i / fps;

  // Pre-pass: floor offset, root motion for in-place cycles, trajectory for centring and the camera.
  holder.position.set(0, 0, 0);
  holder.updateMatrixWorld(true);
  const hips = [];
  let lowest = Number.POSITIVE_INFINITY;
  const lr = wpos(tgt.thighL).sub(wpos(tgt.thighR));
  const fwd = new V3().crossVectors(lr, new V3(0, 1, 0)).normalize();
  const feet = [];
  for (let i = 0; i < frames; i++) {
    pose(timeOf(i));
    hips.push(wpos(tgt.hips));
    feet.push([wpos(tgt.footL), wpos(tgt.footR)]);
    for (const r of ['footL', 'footR', 'toeL', 'toeR'])
      lowest = Math.min(lowest, wpos(tgt[r]).y - restFootY[r]);
  }
  // In-place cycles: the planted foot (within 2.5 cm of its lowest height) moves backwards at the speed the
  // body should move forwards. Its median speed over planted frame pairs is added as root motion.
  let speed = 0;
  if (spec.motion.rootMotion === 'auto') {
    const minY = [0, 1].map((s) => Math.min(...feet.map((f) => f[s].y)));
    const vel = [];
    for (let i = 1; i < frames; i++) {
      for (const s of [0, 1]) {
        if (feet[i][s].y - minY[s] < 0.025 && feet[i - 1][s].y - minY[s] < 0.025) {
          vel.push(
            feet[i][s]
              .clone()
              .sub(feet[i - 1][s])
              .dot(fwd) * fps,
          );
        }
      }
    }
    if (vel.length > 4) {
      const med = vel.sort((x, y) => x - y)[vel.length >> 1];
      if (med < -0.2) speed = -med;
    }
  }
  const dy = -lowest; // the lowest foot pose of the clip touches the floor
  // Horizontal centre of the hips' path (with root motion).
  const path = hips.map((h, i) => h.clone().addScaledVector(fwd, (speed * i) / fps));
  const bb = new THREE.Box3().setFromPoints(path);
  const centre = new V3((bb.min.x + bb.max.x) / 2, 0, (bb.min.z + bb.max.z) / 2);
  const offsetAt = (i) => new V3(-centre.x, dy, -centre.z).addScaledVector(fwd, (speed * i) / fps);
  const hipsAt = (i) => path[i].clone().add(new V3(-centre.x, dy, -centre.z));

  // Camera: a pinhole with square pixels and the principal point at the centre.
  const cam = new THREE.PerspectiveCamera(spec.camera.fovDeg, width / height, 0.05, 200);
  // Yaw is measured from the subject's facing direction in the first frame (0 = in front of it).
  holder.position.set(0, 0, 0);
  holder.updateMatrixWorld(true);
  pose(timeOf(0));
  const face0 = new V3().crossVectors(wpos(tgt.thighL).sub(wpos(tgt.thighR)), new V3(0, 1, 0));
  const yaw = Math.atan2(face0.x, face0.z) + (spec.camera.yawDeg * Math.PI) / 180;
  const lookY = spec.camera.lookHeight;
  const smooth = (i) => {
    const w = Math.round(fps * 0.75);
    const acc = new V3();
    let n = 0;
    for (let j = Math.max(0, i - w); j <= Math.min(frames - 1, i + w); j++, n++) acc.add(hipsAt(j));
    return acc.multiplyScalar(1 / n);
  };
  const placeCamera = (dist, i) => {
    cam.position.set(dist * Math.sin(yaw), spec.camera.height, dist * Math.cos(yaw));
    if (spec.camera.pan) {
      const s = smooth(i);
      cam.lookAt(s.x, lookY, s.z);
    } else cam.lookAt(0, lookY, 0);
    cam.updateMatrixWorld(true);
  };
  // Distance: at least the requested one, more if the subject would leave the picture.
  const h = spec.character.height;
  const fits = (dist) => {
    for (let i = 0; i < frames; i += 3) {
      placeCamera(dist, i);
      const c = hipsAt(i);
      for (const [ox, oy] of [
        [-0.45, -c.y + 0.02],
        [0.45, h - c.y + 0.15],
      ]) {
        for (const oz of [-0.45, 0.45]) {
          const p = c
            .clone()
            .add(new V3(ox, oy, oz))
            .project(cam);
          if (Math.abs(p.x) > 0.94 || Math.abs(p.y) > 0.94 || p.z > 1) return false;
        }
      }
    }
    return true;
  };
  let dist = spec.camera.distance;
  while (!fits(dist) && dist < 40) dist *= 1.05;

  S = {
    gtObjects,
    renderer,
    scene,
    cam,
    pose,
    timeOf,
    holder,
    tgt,
    spec,
    offsetAt,
    placeCamera,
    dist,
    gl: renderer.getContext(),
  };
  const f = height / 2 / Math.tan((spec.camera.fovDeg * Math.PI) / 360);
  return {
    frames,
    fps,
    duration,
    distance: dist,
    rootSpeed: speed,
    floorShift: dy,
    intrinsics: { fx: f, fy: f, cx: width / 2, cy: height / 2, width, height },
    rendererInfo: renderer.getContext().getParameter(renderer.getContext().VERSION),
  };
}

async function frame(i) {
  const { renderer, scene, cam, pose, timeOf, holder, spec, offsetAt, placeCamera, dist, gl } = S;
  holder.position.set(0, 0, 0);
  holder.updateMatrixWorld(true);
  pose(timeOf(i));
  holder.position.copy(offsetAt(i));
  holder.updateMatrixWorld(true);
  placeCamera(dist, i);
  renderer.render(scene, cam);
  const { width: w, height: h } = spec;
  const rgba = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const src = (h - 1 - y) * w * 4;
    const dst = y * w * 3;
    for (let x = 0; x < w; x++) {
      rgb[dst + x * 3] = rgba[src + x * 4];
      rgb[dst + x * 3 + 1] = rgba[src + x * 4 + 1];
      rgb[dst + x * 3 + 2] = rgba[src + x * 4 + 2];
    }
  }
  const res = await fetch(`/frame/${i}`, { method: 'POST', body: rgb });
  if (!res.ok) throw new Error(`frame ${i}: ${res.status} ${await res.text()}`);
  const joints = [];
  for (const o of S.gtObjects) joints.push(...wpos(o).toArray());
  return { joints, view: cam.matrixWorldInverse.elements.slice() };
}

window.mocap = { inspect, setup, frame, ready: true };
