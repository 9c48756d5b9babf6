import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { CameraController } from '../../../src/face-verify/later/camera-controller.js';
import { DeviceError } from '../../../src/biometric/later/device-controller.js';
import { restoreGetUserMedia } from '../support/media.js';

class CameraHost extends LitElement {
  camera = new CameraController(this);
}
customElements.define('camera-host', CameraHost);

describe('CameraController', () => {
  const originalGetUserMedia = restoreGetUserMedia();
  afterEach(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('opens the camera, and every track has ended once the element is removed', async () => {
    const element = await fixture<CameraHost>(html`<camera-host></camera-host>`);
    const stream = await element.camera.open();
    const tracks = stream.getTracks();
    expect(tracks.length).to.be.greaterThan(0);
    expect(tracks.every((t) => t.readyState === 'live')).to.be.true;
    element.remove();
    expect(tracks.every((t) => t.readyState === 'ended')).to.be.true;
    expect(element.camera.stream).to.equal(null);
  });

  it('releases the camera when the page is hidden', async () => {
    const element = await fixture<CameraHost>(html`<camera-host></camera-host>`);
    const tracks = (await element.camera.open()).getTracks();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(tracks.every((t) => t.readyState === 'ended')).to.be.true;
  });

  const failures: [string, string][] = [
    ['NotAllowedError', 'denied'],
    ['NotFoundError', 'no-camera'],
    ['NotReadableError', 'busy'],
    ['OverconstrainedError', 'constraints'],
    ['TypeError', 'unsupported'],
  ];
  for (const [name, reason] of failures) {
    it(`classifies ${name} as ${reason}`, async () => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error(name), { name }));
      const element = await fixture<CameraHost>(html`<camera-host></camera-host>`);
      let caught: unknown;
      await element.camera.open().catch((error) => (caught = error));
      expect(caught).to.be.instanceOf(DeviceError);
      expect((caught as DeviceError).reason).to.equal(reason);
    });
  }

  it('stops a stream that arrives after the element has gone', async () => {
    let resolve!: (stream: MediaStream) => void;
    const real = await originalGetUserMedia.call(navigator.mediaDevices, { video: true });
    navigator.mediaDevices.getUserMedia = () => new Promise((r) => (resolve = r));
    const element = await fixture<CameraHost>(html`<camera-host></camera-host>`);
    const opening = element.camera.open().catch((error) => error);
    element.remove();
    resolve(real);
    expect(((await opening) as DeviceError).reason).to.equal('busy');
    expect(real.getTracks().every((t) => t.readyState === 'ended')).to.be.true;
  });
});
