/**
 * What the camera and microphone controllers share: a stream opened only when asked (after a user
 * gesture), failures classified so each has its own way out, and every track stopped when the
 * element leaves the page, when the page is hidden, or when the flow ends — the lifecycle of lit's
 * ResizeController, for a device.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DeviceFailure } from '../../core/protocol.js';

export class DeviceError<Reason extends DeviceFailure = DeviceFailure> extends Error {
  constructor(
    readonly reason: Reason,
    override readonly cause?: unknown,
  ) {
    super(`device: ${reason}`);
  }
}

/** Why a device did not open: the DeviceError's reason, else `unsupported` (anything else thrown on the way). */
export function failureOf<Reason extends DeviceFailure>(error: unknown): Reason {
  return (error instanceof DeviceError ? error.reason : 'unsupported') as Reason;
}

/** Which failure a getUserMedia rejection means; `missing` names the absent device. */
export function classifyDeviceError<Missing extends 'no-camera' | 'no-microphone'>(error: unknown, missing: Missing): Exclude<DeviceFailure, 'no-camera' | 'no-microphone'> | Missing {
  switch ((error as { name?: string } | null)?.name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return missing;
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

export abstract class DeviceController implements ReactiveController {
  stream: MediaStream | null = null;
  protected abstract readonly missing: 'no-camera' | 'no-microphone';

  /** `onRelease` is called when the device is released by the page being hidden, so the element can move on. */
  constructor(
    protected readonly host: ReactiveControllerHost & HTMLElement,
    private readonly onRelease?: () => void,
  ) {
    host.addController(this);
  }

  /** getUserMedia with the checks around it; replaces any stream already held. */
  protected async acquire(constraints: MediaStreamConstraints): Promise<MediaStream> {
    if (!window.isSecureContext) throw new DeviceError('insecure');
    if (!navigator.mediaDevices?.getUserMedia) throw new DeviceError('unsupported');
    this.stop();
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(constraints);
    } catch (error) {
      throw new DeviceError(classifyDeviceError(error, this.missing), error);
    }
    if (!this.host.isConnected) {
      // The element left while the browser was asking: do not keep a device nobody uses.
      for (const track of stream.getTracks()) track.stop();
      throw new DeviceError('busy');
    }
    this.stream = stream;
    return stream;
  }

  /** Stops every track; the device's light goes off. */
  stop(): void {
    if (!this.stream) return;
    for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.host.requestUpdate();
  }

  #onVisibility = () => {
    if (document.visibilityState !== 'hidden' || !this.stream) return;
    this.stop();
    this.onRelease?.();
  };

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.stop();
  }
}
