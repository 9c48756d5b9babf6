/** The phone link's QR code reads back as the link: its path drawn module by module, with a quiet zone, and decoded by jsQR. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { qrPath } from '../../../src/biometric/later/qr-path.js';

/** Paints the path's rectangles (`M x y h w v1 H x z`) at `scale` pixels a module, inside a 4-module white border. */
function raster({ path, size }: { path: string; size: number }, scale = 4) {
  const side = (size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1H\d+z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < Number(w) * scale; dx++) {
        const at = (((Number(y) + 4) * scale + dy) * side + (Number(x) + 4) * scale + dx) * 4;
        pixels.fill(0, at, at + 3);
      }
    }
  }
  return { pixels, side };
}

describe('the phone link as a QR code', () => {
  for (const link of ['https://shop.example/account/verify#verify-handoff=face.AbCdEfGhIjKlMnOpQrStUv', `https://${'a'.repeat(120)}.example/#verify-handoff=voice.${'_'.repeat(22)}`]) {
    it(`reads back as the link (${link.length} characters)`, () => {
      const qr = qrPath(link);
      assert.equal(qr.path.includes('NaN'), false);
      const { pixels, side } = raster(qr);
      assert.equal(jsQR(pixels, side, side)?.data, link);
    });
  }
});
