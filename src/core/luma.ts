/** Luma (Rec. 601) of RGBA pixels, area-averaged down to a grid: little changed by scaling or re-encoding. */
export interface Pixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

export function areaLuma({ data, width, height }: Pixels, gridWidth: number, gridHeight: number): Float32Array {
  const sums = new Float32Array(gridWidth * gridHeight);
  const counts = new Uint32Array(gridWidth * gridHeight);
  for (let y = 0; y < height; y++) {
    const row = Math.min(gridHeight - 1, Math.floor((y * gridHeight) / height)) * gridWidth;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const cell = row + Math.min(gridWidth - 1, Math.floor((x * gridWidth) / width));
      sums[cell]! += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      counts[cell]!++;
    }
  }
  for (let cell = 0; cell < sums.length; cell++) sums[cell]! /= counts[cell] || 1;
  return sums;
}
