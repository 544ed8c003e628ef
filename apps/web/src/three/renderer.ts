/** What the 3D viewers (motion, glTF, MMD) set up alike: the renderer in its container and the dark stage. */
import * as THREE from 'three';

/** The viewers' stage colour (the scene background; the motion viewer's fog fades to it). */
export const STAGE_COLOR = 0x14161d;

/**
 * A WebGL renderer whose canvas (class `viewer-canvas`) is appended to `container`: antialiased, at most 2
 * device pixels a pixel, sRGB output, its drawing buffer kept so tests and screenshots can read the canvas.
 */
export function viewerRenderer(container: HTMLElement): THREE.WebGLRenderer {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true, alpha: false });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.domElement.className = 'viewer-canvas';
  container.appendChild(renderer.domElement);
  return renderer;
}
