import { expect } from '@open-wc/testing';
import { snapshot } from '../../../src/face-verify/later/snapshot.js';
import { liveVideo, stopAll } from '../support/media.js';

describe('snapshot (the shutter)', () => {
  it('turns a camera frame into raw base64 JPEG of at most 640 px and 200 KB, and reports the time', async () => {
    const { video, stream } = await liveVideo({ width: 1280, height: 720 });
    const times: number[] = [];
    let shot;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      shot = await snapshot(video);
      times.push(performance.now() - start);
    }
    stopAll(stream);
    expect(shot!.base64.startsWith('data:')).to.be.false;
    expect(atob(shot!.base64.slice(0, 4)).charCodeAt(0)).to.equal(0xff);
    expect(Math.max(shot!.width, shot!.height)).to.be.at.most(640);
    expect(shot!.base64.length).to.be.at.most(200 * 1024);
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(shot!.base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }));
    expect([bitmap.width, bitmap.height]).to.deep.equal([shot!.width, shot!.height]);
    times.sort((a, b) => a - b);
    console.log(`shutter to base64 JPEG: median ${times[2]!.toFixed(1)} ms over 5 (${shot!.width}x${shot!.height}, ${Math.round(shot!.base64.length / 1024)} KB base64, quality ${shot!.quality})`);
  });

  it('lowers the quality step by step until the picture fits a smaller budget, and stops at the last', async () => {
    // A still, so that every encoding is of the same picture.
    const photo = await createImageBitmap(await (await fetch('/fixtures/faces/obama_1.jpg')).blob());
    const first = await snapshot(photo, { maxSide: 320 });
    expect(first.quality).to.equal(0.9);
    const budget = Math.floor(first.base64.length * 0.8);
    const small = await snapshot(photo, { maxSide: 320, maxBase64: budget });
    expect(Math.max(small.width, small.height)).to.be.at.most(320);
    expect(small.base64.length, `budget ${budget}`).to.be.at.most(budget);
    expect(small.quality).to.be.below(first.quality);
    // A budget nothing fits gives the lowest quality rather than nothing.
    const floor = await snapshot(photo, { maxSide: 320, maxBase64: 100 });
    expect(floor.quality).to.equal(0.4);
  });
});
