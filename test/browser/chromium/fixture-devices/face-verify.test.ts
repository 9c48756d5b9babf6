import { expect } from '@open-wc/testing';
import { fakeHost } from '../../support/fake-host.js';
import { faceButton, faceFixture, untilFaceStep } from '../../support/face.js';
import { correlation, firstMjpegFrame } from '../../support/media.js';

describe('<face-verify> fed by the obama_1 fixture', () => {
  let host: ReturnType<typeof fakeHost>;
  afterEach(() => host?.stop());

  it('captures by itself once the picture is good, uploads the unmirrored frame, and turns the camera off', async () => {
    const uploads: string[] = [];
    host = fakeHost({ 'verify-by-face': (body) => (uploads.push(body.query_face_image as string), { body: { verified: true, method: 'face', receipt: 'r', expiresAt: null } }) });
    const element = await faceFixture();
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'preview');
    const tracks = (element.shadowRoot!.querySelector('video')!.srcObject as MediaStream | null)?.getTracks() ?? [];
    await untilFaceStep(element, 'review', 10_000);
    expect(tracks.length).to.be.greaterThan(0);
    expect(tracks.every((t) => t.readyState === 'ended'), 'camera off after the capture').to.be.true;
    faceButton(element, 'submit').click();
    await untilFaceStep(element, 'success');
    const photo = await createImageBitmap(new Blob([Uint8Array.from(atob(uploads[0]!), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }));
    const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 48 });
    const context = canvas.getContext('2d')!;
    context.drawImage(photo, 0, 0, 64, 48);
    const { data } = context.getImageData(0, 0, 64, 48);
    const luma = Float64Array.from({ length: 64 * 48 }, (_, i) => 0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!);
    const fixture = (await firstMjpegFrame(window.FEED!.video)).luma;
    const mirrored = Float64Array.from(fixture, (_, i) => fixture[Math.floor(i / 64) * 64 + (63 - (i % 64))]!);
    expect(correlation(luma, fixture), 'same as the fixture').to.be.greaterThan(0.9);
    expect(correlation(luma, mirrored), 'not mirrored').to.be.lessThan(correlation(luma, fixture) - 0.05);
  });
});
