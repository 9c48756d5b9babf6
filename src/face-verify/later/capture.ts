/**
 * The camera step's code: the camera, the quality gate's sampling, the shutter and the live
 * challenge. <face-verify> fetches it when the person starts or picks a file, so that a page that
 * shows only the priming step does not carry it.
 */
import type { CameraFailure, LivenessMove } from '../../core/protocol.js';
import { failureOf } from '../../biometric/later/device-controller.js';
import { CameraController } from './camera-controller.js';
import { browserFaceDetector } from './face-detector.js';
import { watchCloseFace } from './close-face.js';
import { VerifyOtherWayEvent } from '../../events/other-way.js';
import { heldMs, readyToCapture } from './face-verify.flow.js';
import { lightWarning, liveInstruction } from './face-verify.templates.js';
import type { ReactiveControllerHost } from 'lit';
import type { ConfigResponse } from '../../core/protocol.js';
import type { RequestController } from '../../internal/request-controller.js';
import type { FaceStrings } from '../../translations/en/face.js';
import type { FaceDetectorLike } from './face-detector.js';
import type { FaceEvent, FaceState } from './face-verify.flow.js';
import { FrameSampler } from './frame-sampler.js';
import { runChallenge } from './live-challenge.js';
import { onDemand } from '../../internal/on-demand.js';
import { snapshot } from './snapshot.js';

/**
 * Each movement's arrow, drawn on the mirrored preview: the person's own left is on the screen's
 * left there, whatever the page's direction, so the arrows are physical, never flipped for
 * right-to-left text (the words say "your left").
 */
const ARROWS: Record<LivenessMove, string> = {
  left: 'M66 50H34M46 38L34 50L46 62',
  right: 'M34 50H66M54 38L66 50L54 62',
  up: 'M50 64V30M38 42L50 30L62 42',
  down: 'M50 30V64M38 52L50 64L62 52',
  closer: 'M38 38L26 26M26 36V26H36M62 38L74 26M64 26H74V36M38 62L26 74M26 64V74H36M62 62L74 74M74 64V74H64',
};

/**
 * The camera step's tools and what the element does with them: open the camera, hear the quality
 * gate, take the photo (or read a chosen file), lead a live challenge.
 */
/** What the camera step reads and calls of <face-verify>. */
export interface CameraHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly step: string;
  readonly t: FaceStrings;
  readonly language: string;
  readonly flow: { readonly state: FaceState; send(event: FaceEvent): void };
  readonly requests: RequestController;
  readonly config?: ConfigResponse;
  readonly detector: FaceDetectorLike | null | undefined;
  readonly manual: boolean;
  readonly maxSide: number;
  readonly filesAllowed: boolean;
  photo: HTMLCanvasElement | null;
  announce(text: string): void;
  capture(): Promise<void>;
  reportDeviceFailure(reason: CameraFailure): void;
  reportLiveFailure(error: unknown): void;
}

export function captureTools(element: CameraHost) {
  const browserDetector = browserFaceDetector();
  const detector = () => (element.detector === undefined ? browserDetector : element.detector);
  const video = () => (element.isConnected ? element.renderRoot.querySelector('video') : null);
  let spoken = '';
  /** Says what the gate asks, when it changes, in the live region as well as on screen. */
  const speak = (text: string) => {
    if (text === spoken) return;
    spoken = text;
    element.announce(text);
  };
  const tools = {
    camera: new CameraController(element, () => element.flow.send({ type: 'released' })),
    sampler: new FrameSampler(element, {
      video,
      detector,
      active: () => element.step === 'preview',
      // A photo is taken by itself once the gate has held (unless `manual`).
      measured: (problems) => {
        element.flow.send({ type: 'quality', problems, now: performance.now() });
        speak(problems[0] ? element.t[`quality_${problems[0]}`] : element.t.qualityGood);
        if (element.manual || !readyToCapture(element.flow.state, performance.now())) return true;
        void element.capture();
        return false;
      },
    }),
    arrows: ARROWS,
    /** The light challenge's code, a chunk of its own, fetched when a challenge asks for light (a test stands in for the network here). */
    lightCode: onDemand(() => import('./light/show-light.js')),

    /** Opens the camera (the default one, or the one named), or tells why it cannot. */
    async open(deviceId: string | null): Promise<void> {
      try {
        await tools.camera.open(deviceId);
        element.flow.send({ type: 'granted' });
      } catch (error) {
        if (!element.isConnected) return;
        const reason = failureOf<CameraFailure>(error);
        element.flow.send({ type: 'camera-failed', reason, filesAllowed: element.filesAllowed });
        element.reportDeviceFailure(reason);
      }
    },

    /** The shutter, for review: the canvas shown as a picture the review's heading already names. */
    async shoot(source: HTMLVideoElement | ImageBitmap, from: 'camera' | 'file') {
      const shot = await snapshot(source, { maxSide: element.maxSide });
      shot.canvas.setAttribute('part', 'photo');
      shot.canvas.setAttribute('aria-hidden', 'true');
      element.photo = shot.canvas;
      element.flow.send({ type: 'capture', image: shot.base64, source: from });
    },

    /** The preview's frame; where the host checks faces live, the framed face starts the movements instead. */
    async capture(): Promise<void> {
      const preview = video();
      if (element.step !== 'preview' || !preview?.videoWidth) return;
      if (element.config?.liveness) return element.flow.send({ type: 'live' });
      await tools.shoot(preview, 'camera');
    },

    /** A chosen photo instead of the camera's, for review. */
    async useFile(file: File): Promise<void> {
      const bitmap = await createImageBitmap(file).catch(() => null);
      if (bitmap) return tools.shoot(bitmap, 'file');
      element.flow.send({ type: 'file-refused' });
      element.announce(element.t.error_bad_file);
    },

    /** Leads the live challenge the host chooses (live-challenge.ts). */
    challenge: () =>
      runChallenge({
        requests: element.requests,
        flow: element.flow,
        video,
        failed: (error) => element.reportLiveFailure(error),
        instruct: (move) => element.announce(liveInstruction(element.t, move)),
        prefetchLight: () => void tools.lightCode().catch(() => {}),
        warnLight: (light) => {
          element.announce(`${element.t.lightCloser} ${lightWarning(element.t, element.language, light)}`);
          escapeFromWarning(element.flow);
        },
      }),

    /**
     * The person, warned, would rather not see the colours, and the host offers no other way: the
     * challenge ends (the camera released), and the page hears it as the other way's event.
     */
    declineLight(): void {
      const step = element.step;
      element.flow.send({ type: 'released' });
      element.dispatchEvent(new VerifyOtherWayEvent({ kind: 'face', step }));
    },

    /** The person, warned and close, starts the colours: they fill the page and a frame is taken under each. */
    async startLight(): Promise<void> {
      const light = element.flow.state.step === 'challenge' ? element.flow.state.live?.light : undefined;
      if (!light) return;
      let code: Awaited<ReturnType<typeof tools.lightCode>>;
      try {
        code = await tools.lightCode();
      } catch (error) {
        return element.reportLiveFailure(error);
      }
      const before = element.flow.state;
      element.flow.send({ type: 'light' });
      // Pressed twice, or the challenge left meanwhile: the first press alone runs the colours.
      if (element.flow.state === before) return;
      await element.updateComplete;
      element.renderRoot.querySelector<HTMLElement>('[part~="stop"]')?.focus();
      element.announce(element.t.lightShowing);
      // "Keep still" is timed from when the live region holds it (announce writes it on the next
      // frame), not from the press: on a loaded machine (WebKit in CI) that frame came 0.3 s late,
      // time taken from a screen reader's second to say it before the first colour.
      await new Promise<void>((resolve) => (requestAnimationFrame(() => resolve()), setTimeout(resolve, 500)));
      await element.updateComplete;
      watchDuringLight();
      const host = { flow: element.flow, video, lightbox: () => element.renderRoot.querySelector<HTMLElement>('.lighting'), snapshot };
      await code.showLight(host, { ...light, holdMs: heldMs(light) });
    },
  };
  /** The face watched in the larger oval while the colours show: what it says, said when it changes. */
  const watchDuringLight = () => {
    const [watcher, preview] = [detector(), video()];
    if (!watcher || !preview) return;
    const lighting = () => element.flow.state.step === 'challenge' && element.flow.state.lighting === true;
    void watchCloseFace(preview, watcher, lighting, (away) => {
      const before = element.flow.state;
      element.flow.send({ type: 'close-face', away });
      if (element.flow.state !== before) element.announce(away ? element.t.lightAway : element.t.lightShowing);
    });
  };
  return tools;
}

export type CaptureTools = ReturnType<typeof captureTools>;

/**
 * Escape, wherever focus is, ends the challenge from the light's warning on (the colours' own code
 * takes it while they show): the warning says so. The listener goes with the warning.
 */
function escapeFromWarning(flow: CameraHost['flow']): void {
  const warned = flow.state;
  const escape = (event: KeyboardEvent) => {
    const { state } = flow;
    const warning = state.step === 'challenge' && state.live?.nonce === (warned.step === 'challenge' ? warned.live?.nonce : undefined);
    if (!warning) return removeEventListener('keydown', escape);
    if (event.key === 'Escape' && !state.lighting) flow.send({ type: 'released' });
  };
  addEventListener('keydown', escape);
}
