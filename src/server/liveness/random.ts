/** A uniform whole number below `n`, from the platform's secure random source: what a challenge is drawn with. */
export function secureRandom(n: number): number {
  // Rejection sampling: no bias towards the first choices.
  const limit = Math.floor(2 ** 32 / n) * n;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0]! >= limit);
  return word[0]! % n;
}
