/** The markup of each <face-verify> step, read from the element through FaceView: no state lives here. */
import { html, nothing, type TemplateResult } from 'lit';
import { heldMs, type FaceEvent, type FaceState, type LightChallenge } from './face-verify.flow.js';
import type { ConfigResponse, LivenessMove } from '../../core/protocol.js';
import { format } from '../../core/format.js';
import { failureHeading, failureText } from '../../internal/later/failure-text.js';
import { accountButton } from '../../biometric/later/account-actions.js';
import type { SampleView } from '../../biometric/biometric-element.js';
import type { FaceStrings } from '../../translations/en/face.js';

/** What the templates read from <face-verify>, which implements it. */
export interface FaceView extends SampleView {
  readonly t: FaceStrings;
  readonly flow: { readonly state: FaceState; send(event: FaceEvent): void };
  /** The camera step's code, once the person has started (capture.ts). */
  readonly tools: {
    readonly camera: { readonly nextCamera: string | null };
    readonly arrows: Record<LivenessMove, string>;
    /** The light challenge's colours, on the person's press (show-light.ts). */
    startLight(): Promise<void>;
    /** The warning declined where the host offers no other way. */
    declineLight(): void;
  } | null;
  readonly config?: ConfigResponse;
  /** The picture under review, as the shutter drew it. */
  readonly photo: HTMLCanvasElement | null;
  capture(): Promise<void>;
  openCamera(deviceId: string | null): Promise<void>;
  useFile(file: File): Promise<void>;
  /** "Upload a photo instead" (first-step.ts). */
  uploadButton(): TemplateResult;
}

/** The oval the face is framed in; a larger one for the light, which needs the face close to the screen. */
const OVALS = { framed: [20, 36, 46], close: [30, 44, 48] } as const;

/** The video and the oval the person frames their face in (`good` once the gate is satisfied). */
function stage(good: boolean, extra: TemplateResult | typeof nothing, oval: keyof typeof OVALS) {
  const [rx, ry, cy] = OVALS[oval];
  return html`<div part="stage" class="stage">
    <video part="video" playsinline muted autoplay></video>
    <svg part="guide" class="guide ${good ? 'good' : ''}" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
      <path class="shade" fill-rule="evenodd" d="M0 0H100V100H0Z M${50 - rx} ${cy}A${rx} ${ry} 0 1 0 ${50 + rx} ${cy}A${rx} ${ry} 0 1 0 ${50 - rx} ${cy}Z"></path>
      <ellipse class="ring" cx="50" cy=${cy} rx=${rx} ry=${ry}></ellipse>
    </svg>
    ${extra}
  </div>`;
}

interface CameraView {
  heading: string;
  good: boolean;
  extra?: TemplateResult | typeof nothing;
  feedback: string;
  verdict: string;
  below: TemplateResult;
  oval?: keyof typeof OVALS;
  /** The light challenge's colours are showing: the box fills the page, and show-light.ts sets its colour. */
  lighting?: boolean;
}

/**
 * The camera's steps, preview and challenge, in one template, so that the video element and its
 * stream stay as they are when the movements begin and when the colours fill the page.
 */
function camera(v: FaceView, { heading, good, extra = nothing, feedback, verdict, below, oval = 'framed', lighting = false }: CameraView) {
  return html`<div class="camera ${lighting ? 'lighting' : ''}">
    ${v.heading(heading)} ${stage(good, extra, oval)}
    <p part="feedback" class="feedback ${verdict}">${feedback}</p>
    ${below}
  </div>`;
}

function renderChallenge(v: FaceView, state: Extract<FaceState, { step: 'challenge' }>) {
  const { t } = v;
  const { live } = state;
  const asked = live?.asked ?? 0;
  const number = new Intl.NumberFormat(v.language);
  const steps = live ? live.moves.length + 1 + (live.light ? 1 : 0) : 0;
  const progress = (step: number) => html`<p part="message" class="progress">${format(t.liveProgress, { step: number.format(step), total: number.format(steps) })}</p>`;
  if (live?.light && live.filmed) return renderLight(v, state.lighting === true, live.light, progress(steps), state.away === true);
  const move = asked > 0 ? live!.moves[asked - 1]! : null;
  const path = move && v.tools?.arrows[move];
  const arrow = path ? html`<svg part="arrow" class="arrow ${move}" viewBox="0 0 100 100" aria-hidden="true"><path d=${path}></path></svg>` : nothing;
  const below = html`${live ? progress(asked + 1) : html`<div part="spinner" class="spinner" aria-hidden="true"></div>`}<div class="actions">${v.otherWays()}</div>`;
  return camera(v, { heading: t.liveHeading, good: move === null && live !== null, extra: arrow, feedback: liveInstruction(t, move), verdict: 'instruction', below });
}

/**
 * The light challenge: first what will happen and the way out (the other way, or simply not
 * starting), with the face brought close into a larger oval; then, on the press, the colours fill
 * the page around the preview, with Stop (and Escape) to end them; the oval says when the face is
 * `away` from it (close-face.ts).
 */
function renderLight(v: FaceView, lighting: boolean, light: LightChallenge, progress: TemplateResult, away: boolean) {
  const { t } = v;
  if (lighting) {
    const below = html`<div class="actions"><button part="button stop" class="secondary" type="button" @click=${() => v.flow.send({ type: 'released' })}>${t.lightStop}</button></div>`;
    return camera(v, { heading: t.lightHeading, good: !away, feedback: away ? t.lightAway : t.lightShowing, verdict: away ? 'warn' : 'instruction', below, oval: 'close', lighting });
  }
  // Without the host's other way, a way not to see the colours all the same: no dead end.
  const other = Boolean(v.accountWay.other);
  const below = html`<p part="message">${lightWarning(t, v.language, light)}${other ? nothing : html` ${t.lightNoOtherWay}`}</p>
    ${progress}
    <div class="actions">
      <button part="button submit" class="primary" type="button" @click=${() => void v.tools?.startLight()}>${t.lightStart}</button>
      ${v.otherWays()}
      ${other ? nothing : html`<button part="button decline" class="secondary" type="button" @click=${() => v.tools?.declineLight()}>${t.lightDecline}</button>`}
    </div>`;
  return camera(v, { heading: t.lightHeading, good: false, feedback: t.lightCloser, verdict: 'instruction', below, oval: 'close' });
}

/** What the light will show and for how long, and not to start it if it could make one unwell: on screen, and said as it appears. */
export function lightWarning(t: FaceStrings, language: string, light: LightChallenge): string {
  const number = (value: number, digits = 0) => new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
  return format(t.lightWarning, { count: number(light.colours.length), seconds: number((light.colours.length * heldMs(light)) / 1000, 1) });
}

/**
 * What a live challenge asks now, on screen and in the live region alike: the frontal look, or a
 * movement and to hold it (its frame is taken at the end of its time, not at its start).
 */
export function liveInstruction(t: FaceStrings, move: LivenessMove | null): string {
  return move ? `${t[`move_${move}`]} ${t.liveHold}` : t.liveFrontal;
}

export function renderFaceStep(v: FaceView): TemplateResult | typeof nothing {
  const { t } = v;
  const { state } = v.flow;
  const title = v.mode === 'enroll' ? t.faceEnrollHeading : t.faceHeading;
  switch (state.step) {
    case 'priming':
      // The element draws its first step itself (first-step.ts).
      return nothing;
    case 'permission':
      return html`${v.heading(title)}<p part="message">${t.cameraAsking}</p><div part="spinner" class="spinner" aria-hidden="true"></div>`;
    case 'preview': {
      // No verdict before a frame has been measured (the detector may still be loading).
      const problem = state.problems?.[0];
      const verdict = state.problems === null ? '' : problem ? 'warn' : 'good';
      const next = v.tools?.camera.nextCamera;
      const actions = html`<div class="actions">
        <button part="button submit shutter" class="primary" type="button" @click=${() => void v.capture()}>${t.takePhoto}</button>
        ${next ? html`<button part="button switch" class="secondary" type="button" @click=${() => void v.openCamera(next)}>${t.switchCamera}</button>` : nothing}
      </div>`;
      return camera(v, { heading: t.previewHeading, good: verdict === 'good', feedback: problem ? t[`quality_${problem}`] : verdict ? t.qualityGood : t.qualityWaiting, verdict, below: actions });
    }
    case 'challenge':
      return renderChallenge(v, state);
    case 'review':
      return html`${v.heading(t.reviewHeading)}
        <div part="stage" class="stage">${v.photo}</div>
        <div class="actions">
          <button part="button submit" class="primary" type="button" @click=${() => v.flow.send({ type: 'confirm' })}>${t.usePhoto}</button>
          <button part="button" class="secondary" type="button" @click=${() => v.flow.send({ type: 'retake' })}>${t.retake}</button>
        </div>`;
    case 'uploading':
      return html`${v.heading(t.checkingPhoto)}<div part="spinner" class="spinner" aria-hidden="true"></div>`;
    case 'success':
      return html`<div class="result success">${v.heading(v.mode === 'enroll' ? t.enrolledHeading : t.successHeading)}<p part="message">${v.phoneLink.phone ? t.handoffPhoneDone : v.mode === 'enroll' ? t.faceEnrolled : t.faceVerified}</p></div>`;
    case 'handoff':
      return html`${v.heading(t.handoffHeading)}${v.phoneLink.render()}`;
    case 'failure': {
      return html`${v.heading(failureHeading(t, state.reason, state.canRetry || state.canUpload))}
        <p part="error" class="error">${failureText(t, v.language, 'camera', state)}</p>
        <div class="actions">
          ${state.canRetry ? html`<button part="button submit" class="primary" type="button" @click=${() => v.flow.send({ type: 'retry' })}>${t.tryAgain}</button>` : nothing}
          ${state.kept ? html`<button part="button" class="secondary" type="button" @click=${() => v.flow.send({ type: 'retake' })}>${t.retake}</button>` : nothing}
          ${state.canUpload ? v.uploadButton() : nothing}
          ${accountButton(t, state.reason, v.accountWay)}${v.otherWays()}
        </div>`;
    }
  }
}
