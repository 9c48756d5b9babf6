/** A link as a QR code (uqr), drawn as one SVG path: no image, no canvas, nothing a strict CSP refuses. */
import { encode } from 'uqr';

/** The dark modules, each row's runs merged into one rectangle: a few kilobytes of path for a link. */
export function qrPath(link: string): { path: string; size: number } {
  const { data, size } = encode(link, { ecc: 'M', border: 0 });
  let path = '';
  data.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const start = x;
      while (row[x + 1]) x++;
      path += `M${start} ${y}h${x - start + 1}v1H${start}z`;
    }
  });
  return { path, size };
}
