/**
 * The light challenge, the widget's side: the colours the host chose fill the page one after the
 * other, the person's face close to the screen, and a frame is taken under each once the colour is
 * on screen, painted and seen by the camera. The host checks that the face reflected them, in order
 * (light.ts on the server). Fetched only when a challenge asks for light; it imports nothing of the
 * later steps (the host hands it the shutter), so that they stay one file and it another.
 *
 * Safe for photosensitive people: a warning and a press before it starts; each colour held at least
 * `MIN_HOLD_MS` whatever a handler asks (capture.ts; 2.5 changes a second at most, WCAG 2.3.1 allows three);
 * the host's palette has no saturated red; each colour fades in over 0.2 s rather than cutting in,
 * under reduced motion too (the styles); Escape or Stop ends it at once.
 */
import type { FaceEvent, FaceState, LightChallenge } from '../face-verify.flow.js';
import type { snapshot } from '../snapshot.js';

export interface LightHost {
  readonly flow: { readonly state: FaceState; send(event: FaceEvent): void };
  video(): HTMLVideoElement | null;
  /** What fills the page with the colour (the camera step's box, while it shows the light). */
  lightbox(): HTMLElement | null;
  snapshot: typeof snapshot;
}

/**
 * The page is filled, and "Keep still" said and shown, this long before the first colour: time for
 * a screen reader to say it and for the person to settle close to the screen, and for the camera's
 * exposure to follow the brighter page, before anything is read of the face.
 */
const KEEP_STILL_MS = 1200;

/** Each frame is taken this far into its colour's time: after any fade, and once the camera's exposure has followed. */
const TAKE_AT = 0.8;
/**
 * The light's frames at 320 px, as the server's rules were measured (light.test.ts) and its cost is
 * benched: it reads a coarse grid of colours and checks who it is on a face that is close. At most
 * 40 KB of base64 each, as the film's frames: 24 and 8 of them fit the handler's 1 MB.
 */
export const LIT_FRAME = { maxSide: 320, maxBase64: 40 * 1024 };

/** Resolves when `wait` does or after `ms`, whichever comes first: a hidden page runs no frames. */
const atMost = (ms: number, wait: (done: () => void) => void) => new Promise<void>((resolve) => (wait(resolve), setTimeout(resolve, ms)));
const until = (time: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time - performance.now())));

/** The colour is painted: the callback of the frame after the one that drew it. */
const painted = () => atMost(500, (done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));

/**
 * The camera has given two frames since (the first may have been exposed before the paint): false
 * where its track has ended, or where the browser says when frames come and none came for a second.
 */
async function cameraFrames(video: HTMLVideoElement): Promise<boolean> {
  for (let i = 0; i < 2; i++) {
    let came = !video.requestVideoFrameCallback;
    await atMost(i ? 250 : 1000, (done) => (video.requestVideoFrameCallback ? video.requestVideoFrameCallback(() => ((came = true), done())) : setTimeout(done, 70)));
    if (!came && !i) return false;
  }
  const tracks = video.srcObject instanceof MediaStream ? video.srcObject.getVideoTracks() : [];
  return tracks.every((track) => track.readyState === 'live');
}

const showing = (host: LightHost) => host.flow.state.step === 'challenge' && host.flow.state.lighting === true;

/** Shows `colours`, each for `hold` ms (held to the widget's minimum already), a frame taken under each. */
export async function showLight(host: LightHost, { colours, holdMs: hold }: LightChallenge): Promise<void> {
  // Escape ends the colours wherever focus is.
  const escape = (event: KeyboardEvent) => void (event.key === 'Escape' && host.flow.send({ type: 'released' }));
  addEventListener('keydown', escape);
  try {
    await until(performance.now() + KEEP_STILL_MS);
    for (const colour of colours) {
      const [box, video] = [host.lightbox(), host.video()];
      if (!showing(host) || !box || !video?.videoWidth) return;
      const start = performance.now();
      // Through the CSSOM: a strict CSP refuses style attributes written into markup, not this.
      box.style.setProperty('background-color', colour);
      await painted();
      const filming = await cameraFrames(video);
      await until(start + hold * TAKE_AT);
      if (!showing(host)) return;
      // A camera gone in the middle (its frames stopped, the widget removed) ends the colours as Stop
      // does: they never stay on screen with no camera to see them.
      const shot = filming && video.isConnected && video.videoWidth ? await host.snapshot(video, LIT_FRAME).catch(() => null) : null;
      if (!shot) return host.flow.send({ type: 'released' });
      host.flow.send({ type: 'lit', image: shot.base64 });
      await until(start + hold);
    }
  } finally {
    removeEventListener('keydown', escape);
  }
}
