// The gallery's contact-sheet page (see bench/gallery.ts): one clip per page. Row 1: the video frame with the
// solved skeleton projected through the solve's camera (and BlazePose's image landmarks, and the solve's floor
// as a projected grid); rows 2 and 3: the product's character (GLB animated by the solved clip) from the front and
// from the side of the performer, level orthographic views with the floor as a line; row 4: figures per frame.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const COLORS = ['#ffffff', '#4da3ff', '#ff7a59'];

function loadImage(url) {
  return new Promise((ok, fail) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => fail(new Error(`cannot load ${url}`));
    img.src = url;
  });
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Draws the frame's crop (video pixels [x, y, w, h], may reach outside the picture: black there) and the overlays.
function drawOverlay(ctx, img, f, video) {
  const [cx, cy, cw, ch] = f.crop;
  const s = ctx.canvas.width / cw;
  const k = img.naturalWidth / video.width; // the JPEG may be smaller than the video
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  const x0 = Math.max(0, cx);
  const y0 = Math.max(0, cy);
  const x1 = Math.min(video.width, cx + cw);
  const y1 = Math.min(video.height, cy + ch);
  if (x1 > x0 && y1 > y0) {
    ctx.drawImage(
      img,
      x0 * k,
      y0 * k,
      (x1 - x0) * k,
      (y1 - y0) * k,
      (x0 - cx) * s,
      (y0 - cy) * s,
      (x1 - x0) * s,
      (y1 - y0) * s,
    );
  }
  ctx.save();
  ctx.translate(-cx * s, -cy * s);
  ctx.lineCap = 'round';
  // The solve's floor, projected.
  ctx.strokeStyle = 'rgba(90, 230, 230, 0.55)';
  ctx.lineWidth = 1;
  for (const [a, b, c, d] of f.floor2d) {
    ctx.beginPath();
    ctx.moveTo(a * s, b * s);
    ctx.lineTo(c * s, d * s);
    ctx.stroke();
  }
  // Solved skeleton: dark outline, then colour (white centre, blue left, orange right).
  for (const pass of [0, 1]) {
    for (const [a, b, c, d, k] of f.bones2d) {
      ctx.strokeStyle = pass === 0 ? 'rgba(0,0,0,0.75)' : COLORS[k];
      ctx.lineWidth = pass === 0 ? 5 : 2.6;
      ctx.beginPath();
      ctx.moveTo(a * s, b * s);
      ctx.lineTo(c * s, d * s);
      ctx.stroke();
    }
  }
  // BlazePose's image landmarks (what the fit should land on).
  ctx.fillStyle = '#ffe14d';
  for (const [u, v, vis] of f.landmarks) {
    if (vis < 0.5) continue;
    ctx.beginPath();
    ctx.arc(u * s, v * s, 2.2, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

async function render(spec) {
  const sheet = document.getElementById('sheet');
  sheet.innerHTML = '';
  sheet.append(el('h1', '', spec.title), el('div', 'sub', spec.subtitle));
  const W = spec.colWidth;
  const vidH = Math.round((W * 4) / 3);
  const viewH = Math.round(W * 1.3);
  const n = spec.frames.length;
  const grid = el('div', 'grid');
  grid.style.gridTemplateColumns = `repeat(${n}, ${W}px)`;
  sheet.append(grid);

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(W, viewH);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2b303c);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x556070, 1.7));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  scene.add(sun);
  scene.add(sun.target);
  // The ground below y = 0 (translucent: a foot under the floor still shows) and the floor line on its top,
  // moved under the performer at each frame; the level cameras see them edge-on, 20 m away.
  const ground = new THREE.Mesh(
    new THREE.BoxGeometry(8, 1, 8),
    new THREE.MeshBasicMaterial({ color: 0x1c2029, transparent: true, opacity: 0.55, depthWrite: false }),
  );
  ground.renderOrder = 2;
  // (the ground's top is 2 cm under the floor line's top, so the two never fight for the same depth)
  const floorLine = new THREE.Mesh(
    new THREE.BoxGeometry(8, 0.018, 8),
    new THREE.MeshBasicMaterial({ color: 0xb8c6dc }),
  );
  // A faint line 10 cm above the floor, to read heights against.
  const ref = new THREE.Mesh(
    new THREE.BoxGeometry(8, 0.006, 8),
    new THREE.MeshBasicMaterial({ color: 0x5d6883 }),
  );
  scene.add(ground, floorLine, ref);
  // At the surface carrying the body (the solve's support level: raised ground such as a box; 0 = the floor).
  const placeFloor = (x, z, level) => {
    ground.position.set(x, level - 0.52, z);
    floorLine.position.set(x, level - 0.009, z);
    ref.position.set(x, level + 0.1, z);
  };

  const gltf = await new GLTFLoader().loadAsync(spec.glbUrl);
  const model = gltf.scene;
  scene.add(model);
  const mixer = new THREE.AnimationMixer(model);
  if (gltf.animations[0]) {
    // Played once and held: a looping action would wrap the last frame's time back to the first pose.
    const action = mixer.clipAction(gltf.animations[0]);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
  }
  model.traverse((o) => {
    if (o.isMesh) o.frustumCulled = false;
  });

  const top = spec.viewTop;
  const bottom = -0.25;
  const halfW = ((top - bottom) * W) / viewH / 2;
  const cam = new THREE.OrthographicCamera(-halfW, halfW, top, bottom, 0.1, 60);
  const box = new THREE.Box3();
  const images = await Promise.all(spec.frames.map((f) => loadImage(f.imageUrl)));

  const rows = { video: [], front: [], side: [], label: [] };
  const lowest = [];
  for (let k = 0; k < n; k++) {
    const f = spec.frames[k];
    // Video frame with overlays.
    const vc = el('div', 'cell');
    const canvas = document.createElement('canvas');
    canvas.width = W;
    canvas.height = vidH;
    drawOverlay(canvas.getContext('2d'), images[k], f, spec.video);
    vc.append(canvas, el('div', 'tag', f.tag));
    rows.video.push(vc);
    // Character.
    mixer.setTime(f.time);
    model.updateMatrixWorld(true);
    box.setFromObject(model, true);
    lowest.push(box.min.y - (f.support ?? 0));
    const yaw = f.facingYaw;
    const fwd = new THREE.Vector3(Math.sin(yaw), 0, Math.cos(yaw));
    const right = new THREE.Vector3(-Math.cos(yaw), 0, Math.sin(yaw));
    const c = new THREE.Vector3(f.hips[0], 0, f.hips[2]);
    placeFloor(c.x, c.z, f.support ?? 0);
    for (const [name, dir] of [
      ['front', fwd],
      ['side', right],
    ]) {
      cam.position.copy(c).addScaledVector(dir, 20);
      cam.position.y = 0;
      cam.up.set(0, 1, 0);
      cam.lookAt(c.x, 0, c.z);
      sun.position
        .copy(cam.position)
        .add(new THREE.Vector3(0, 8, 0))
        .addScaledVector(dir.clone().cross(new THREE.Vector3(0, 1, 0)), 5);
      sun.target.position.copy(c);
      renderer.render(scene, cam);
      const img = new Image();
      img.src = renderer.domElement.toDataURL('image/png');
      img.width = W;
      img.height = viewH;
      const cell = el('div', 'cell');
      cell.append(img, el('div', 'tag', name === 'front' ? 'front' : 'side (performer’s right)'));
      rows[name].push(cell);
    }
    const lab = el('div', 'label');
    const feet = Math.round((box.min.y - (f.support ?? 0)) * 100);
    const on = f.support ? ` (on ${Math.round(f.support * 100)} cm)` : '';
    const lines = [...f.lines, `lowest point ${feet >= 0 ? '+' : ''}${feet} cm${on}`];
    lines.forEach((line, i) => {
      const span = el('span', f.bad[i] || (i === lines.length - 1 && Math.abs(feet) > 5) ? 'bad' : '', line);
      lab.append(span, document.createTextNode('\n'));
    });
    rows.label.push(lab);
  }
  for (const r of ['video', 'front', 'side', 'label']) for (const c of rows[r]) grid.append(c);
  await Promise.all(
    [...sheet.querySelectorAll('img')].map((i) => (i.complete ? null : new Promise((ok) => (i.onload = ok)))),
  );
  sheet.append(el('div', 'legend', spec.legend));
  renderer.dispose();
  return { lowest };
}

globalThis.gallery = { ready: true, render };
