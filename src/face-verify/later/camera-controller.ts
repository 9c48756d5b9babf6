/**
 * Owns the camera stream of a widget (see DeviceController): the front camera preferred, and a
 * switch between cameras when there are several.
 */
import { DeviceController } from '../../biometric/later/device-controller.js';

export class CameraController extends DeviceController {
  protected readonly missing = 'no-camera';
  /** Video inputs, known once permission is granted (labels are empty before). */
  cameras: MediaDeviceInfo[] = [];
  deviceId: string | null = null;

  /** Opens the camera; call it from a user gesture. */
  async open(deviceId: string | null = this.deviceId): Promise<MediaStream> {
    const video: MediaTrackConstraints = {
      width: { ideal: 1280 },
      height: { ideal: 720 },
      ...(deviceId ? { deviceId: { exact: deviceId } } : { facingMode: 'user' }),
    };
    const stream = await this.acquire({ video, audio: false });
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
}
