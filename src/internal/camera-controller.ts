/**
 * Owns the camera stream of a widget: opened only when asked (after a user gesture), the front
 * camera preferred, a switch between cameras, and every track stopped when the element leaves
 * the page, when the page is hidden, or when the flow ends — the lifecycle of lit's
 * ResizeController, for a device. Failures come back classified, so each has its own way out.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type CameraFailure = 'denied' | 'no-camera' | 'busy' | 'constraints' | 'insecure' | 'unsupported';

export class CameraError extends Error {
  constructor(
    readonly reason: CameraFailure,
    override readonly cause?: unknown,
  ) {
    super(`camera: ${reason}`);
  }
}

/** Which failure a getUserMedia rejection means. */
export function classifyCameraError(error: unknown): CameraFailure {
  const name = (error as { name?: string } | null)?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return 'no-camera';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'constraints';
    default:
      return 'unsupported';
  }
}

export class CameraController implements ReactiveController {
  stream: MediaStream | null = null;
  /** Video inputs, known once permission is granted (labels are empty before). */
  cameras: MediaDeviceInfo[] = [];
  deviceId: string | null = null;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  /** Opens the camera; call it from a user gesture. Replaces any stream it already holds. */
  async open(deviceId: string | null = this.deviceId): Promise<MediaStream> {
    if (!window.isSecureContext) throw new CameraError('insecure');
    if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported');
    this.stop();
    const video: MediaTrackConstraints = {
      width: { ideal: 1280 },
      height: { ideal: 720 },
      ...(deviceId ? { deviceId: { exact: deviceId } } : { facingMode: 'user' }),
    };
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
    } catch (error) {
      throw new CameraError(classifyCameraError(error), error);
    }
    if (!this.host.isConnected) {
      // The element left while the browser was asking: do not keep a camera nobody shows.
      for (const track of stream.getTracks()) track.stop();
      throw new CameraError('busy');
    }
    this.stream = stream;
    this.deviceId = stream.getVideoTracks()[0]?.getSettings().deviceId ?? deviceId;
    this.cameras = (await navigator.mediaDevices.enumerateDevices().catch(() => [])).filter((d) => d.kind === 'videoinput');
    this.host.requestUpdate();
    return stream;
  }

  /** The next camera, for the switcher; null when there is only one. */
  get nextCamera(): string | null {
    if (this.cameras.length < 2) return null;
    const index = this.cameras.findIndex((c) => c.deviceId === this.deviceId);
    return this.cameras[(index + 1) % this.cameras.length]!.deviceId;
  }

  /** Stops every track; the camera light goes off. */
  stop(): void {
    if (!this.stream) return;
    for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.host.requestUpdate();
  }

  #onVisibility = () => {
    if (document.visibilityState === 'hidden') this.stop();
  };

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.stop();
  }
}
