/**
 * A second model of the screen's light on a real face, written apart from real-light.test.ts's own
 * (an ellipsoid facing the camera, a tenth on the room, a grey-world camera), so that the light's
 * rules are held against two opinions of the world rather than the one they were set on. Here:
 * - the face's shape from its landmarks: rounder across than down, a nose that stands out along
 *   the line from its bridge to its tip, the eyes set in sockets; its normals from that depth;
 * - the screen below the camera (as a laptop's is), so that the light comes from a little below,
 *   and it falls off with the square of the distance, deeper parts of the face taking less;
 * - a specular touch on the skin (the screen's colour itself, not the skin's), strongest where the
 *   surface mirrors the screen into the camera: the nose, the cheekbones;
 * - beyond the face: the neck under the chin takes a third, the hair and the room almost nothing;
 * - a webcam that adjusts late: its exposure and white balance go part of the way to the new frame
 *   each time, its tone curve adds contrast, its sensor adds noise, and it sends 320 x 240 JPEG at
 *   quality 70.
 */
import { eyeCentres, inside, type Point } from '../../../src/server/liveness/geometry.js';
import { linearOf, type LightColour } from '../../../src/server/liveness/light.js';
import { toJpeg, toLinear, type Rgba } from './head.js';

/** A frame in linear light, three floats a pixel. */
interface Linear {
  rgb: Float32Array;
  width: number;
  height: number;
}

/** The direction from the face to the screen's middle: ahead, and a little below the eyes. */
const TO_SCREEN = (() => {
  const [x, y, z] = [0, 0.3, 1];
  const n = Math.hypot(x, y, z);
  return [x / n, y / n, z / n] as const;
})();
/** The screen's distance in the face's half-widths (30 cm against 7 cm). */
const SCREEN_DISTANCE = 4.3;

/** The face's depth at a pixel, in half-widths of the jaw, from a few landmarks: null outside the face. */
function depthOf(landmarks: Point[]) {
  const [left, right] = eyeCentres(landmarks);
  const half = Math.abs(landmarks[16]!.x - landmarks[0]!.x) / 2;
  const axis = (landmarks[0]!.x + landmarks[16]!.x) / 2;
  const eyesY = (left.y + right.y) / 2;
  const chinY = landmarks[8]!.y;
  const [bridge, tip] = [landmarks[27]!, landmarks[30]!];
  // The outline: the jaw, and the brows raised by a third of the eyes-to-chin height for the forehead.
  const lift = (chinY - eyesY) / 3;
  const outline = [...landmarks.slice(0, 17), ...landmarks.slice(17, 27).reverse().map((p) => ({ x: p.x, y: p.y - lift }))];
  // Its box first: most of a frame is beyond the face, and the outline's test is the costly part.
  const [xs, ys] = [outline.map((p) => p.x), outline.map((p) => p.y)];
  const box = { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
  return (x: number, y: number): number | null => {
    if (x < box.left || x > box.right || y < box.top || y > box.bottom || !inside(outline, { x, y })) return null;
    const u = (x - axis) / half;
    const v = (y - eyesY) / (chinY - eyesY);
    let z = 0.9 * Math.sqrt(Math.max(0, 1 - 0.85 * u * u)) * (1 - 0.15 * v * v);
    // The nose: a ridge from the bridge to the tip, highest at the tip.
    const along = Math.min(1, Math.max(0, (y - bridge.y) / (tip.y - bridge.y || 1)));
    const noseX = bridge.x + along * (tip.x - bridge.x);
    if (y > bridge.y - 0.1 * half && y < tip.y + 0.15 * half) z += 0.3 * along * Math.exp(-(((x - noseX) / (0.16 * half)) ** 2) / 2);
    for (const eye of [left, right]) z -= 0.12 * Math.exp(-((x - eye.x) ** 2 + (y - eye.y) ** 2) / (2 * (0.2 * half) ** 2));
    return z * half;
  };
}

/** `frame` lit by the screen showing `colour`, at `strength` of the room's light where the skin faces it square on. */
export function litBySecondModel(frame: Rgba, landmarks: Point[], colour: LightColour, strength: number): Linear {
  const light = linearOf(colour);
  const depth = depthOf(landmarks);
  const half = Math.abs(landmarks[16]!.x - landmarks[0]!.x) / 2;
  const [jawLeft, jawRight, chinY] = [landmarks[0]!.x, landmarks[16]!.x, landmarks[8]!.y];
  const halfway = [TO_SCREEN[0], TO_SCREEN[1], TO_SCREEN[2] + 1];
  const hn = Math.hypot(...halfway);
  const rgb = new Float32Array(frame.width * frame.height * 3);
  // The face's mean brightness: a specular touch adds light of that order, whatever the skin's colour.
  let [skin, count] = [0, 0];
  for (let y = 0; y < frame.height; y += 2) for (let x = 0; x < frame.width; x += 2) if (depth(x, y) !== null) [skin, count] = [skin + toLinear(frame.data[(y * frame.width + x) * 4 + 1]!), count + 1];
  skin /= count || 1;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const z = depth(x, y);
      let diffuse: number;
      let specular = 0;
      if (z !== null) {
        const [zx, zy] = [(depth(x + 1, y) ?? z) - z, (depth(x, y + 1) ?? z) - z];
        const n = Math.hypot(zx, zy, 1);
        const normal = [-zx / n, -zy / n, 1 / n];
        const facing = Math.max(0, normal[0]! * TO_SCREEN[0] + normal[1]! * TO_SCREEN[1] + normal[2]! * TO_SCREEN[2]);
        // Deeper is farther from the screen: the light falls with the square of the distance.
        const far = (SCREEN_DISTANCE / (SCREEN_DISTANCE + 0.9 - z / half)) ** 2;
        diffuse = facing * far;
        specular = 0.15 * Math.max(0, (normal[0]! * halfway[0]! + normal[1]! * halfway[1]! + normal[2]! * halfway[2]!) / hn) ** 24 * far;
      } else {
        // The neck, under the chin and narrower than the jaw, faces the screen too.
        const neck = y > chinY && y < chinY + 0.8 * half && Math.abs(x - (jawLeft + jawRight) / 2) < 0.6 * half;
        diffuse = neck ? 0.33 : 0.02;
      }
      const i = y * frame.width + x;
      for (let c = 0; c < 3; c++) {
        const base = toLinear(frame.data[i * 4 + c]!);
        rgb[i * 3 + c] = base * (1 + strength * diffuse * light[c]!) + strength * specular * light[c]! * skin;
      }
    }
  }
  return { rgb, width: frame.width, height: frame.height };
}

/**
 * A webcam that takes a sequence of frames: its exposure and its white balance move 60 % and 30 %
 * of the way to each new frame's (they lag, as real ones do), a tone curve with more contrast than
 * sRGB's, sensor noise, and 320 x 240 JPEG at quality 70. `brightness` is the mean linear luma the
 * exposure aims for.
 */
export function secondWebcam(frames: Linear[], brightness: number, random: () => number): Uint8Array[] {
  let gains = [1, 1, 1];
  let exposure = 1;
  return frames.map((frame, index) => {
    const mean = [0, 0, 0];
    const pixels = frame.width * frame.height;
    for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) mean[c]! += frame.rgb[i * 3 + c]! / pixels;
    const luma = 0.2126 * mean[0]! + 0.7152 * mean[1]! + 0.0722 * mean[2]!;
    const grey = (mean[0]! + mean[1]! + mean[2]!) / 3;
    const [wantExposure, wantGains] = [brightness / luma, mean.map((m) => grey / m)];
    const lag = (now: number, want: number, share: number) => (index === 0 ? want : now * (want / now) ** share);
    exposure = lag(exposure, wantExposure, 0.6);
    gains = gains.map((g, c) => lag(g, wantGains[c]!, 0.3));
    const [width, height] = [320, 240];
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const [sx, sy] = [Math.min(frame.width - 1, Math.round(((x + 0.5) * frame.width) / width - 0.5)), Math.min(frame.height - 1, Math.round(((y + 0.5) * frame.height) / height - 0.5))];
        for (let c = 0; c < 3; c++) {
          const v = Math.min(1, frame.rgb[(sy * frame.width + sx) * 3 + c]! * exposure * gains[c]!);
          // A gamma of 2.2 and an S-curve round the middle grey.
          const toned = v ** (1 / 2.2);
          const contrast = toned + 0.08 * Math.sin(2 * Math.PI * (toned - 0.5));
          const noise = (random() + random() + random() - 1.5) * 3;
          data[(y * width + x) * 4 + c] = Math.round(255 * contrast + noise);
        }
        data[(y * width + x) * 4 + 3] = 255;
      }
    }
    return toJpeg({ data, width, height }, 70);
  });
}
