/**
 * The proof of work the handler asks for under pressure: an ALTCHA (v2) challenge with SHA-256 and
 * one round, as `altcha-lib` makes it on the server. The solver hashes `salt ‖ nonce ‖ counter`
 * (the counter a big-endian uint32) from 0 until the digest starts with `keyPrefix`. It runs on
 * the main thread in batches of Web Crypto digests, which needs neither a worker nor `blob:` nor
 * `eval`, so it works under the strictest CSP; the page gets a turn every few batches.
 */
export interface AltchaChallenge {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    keyPrefix: string;
  };
  signature?: string;
}

/** Digests in flight at once: enough to keep Web Crypto busy, few enough to keep the page responsive. */
const BATCH = 256;
/** Milliseconds of solving between two turns of the page's own tasks. */
const YIELD_MS = 50;

const bytesOf = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function startsWith(digest: Uint8Array, prefix: Uint8Array): boolean {
  for (let i = 0; i < prefix.length; i++) if (digest[i] !== prefix[i]) return false;
  return true;
}

/**
 * Solves the challenge, answering the payload the handler reads (base64 JSON, as ALTCHA's widget
 * submits it). Rejects with the signal's reason when aborted.
 */
export async function solveChallenge(challenge: AltchaChallenge, signal: AbortSignal): Promise<string> {
  const { algorithm, nonce, salt, keyPrefix } = challenge.parameters;
  if (algorithm !== 'SHA-256' || keyPrefix.length % 2 !== 0) throw new TypeError(`Unsupported challenge: ${algorithm}`);
  const [saltBytes, nonceBytes, prefix] = [bytesOf(salt), bytesOf(nonce), bytesOf(keyPrefix)];
  const inputLength = saltBytes.length + nonceBytes.length;
  let yielded = performance.now();
  for (let start = 0; start <= 0xffffffff; start += BATCH) {
    signal.throwIfAborted();
    // Digests answer as tasks that would starve the page's timers and frames: a turn for them now and then.
    if (performance.now() - yielded > YIELD_MS) {
      await new Promise((next) => setTimeout(next));
      yielded = performance.now();
    }
    const digests = await Promise.all(
      Array.from({ length: BATCH }, (_, i) => {
        const input = new Uint8Array(inputLength + 4);
        input.set(saltBytes);
        input.set(nonceBytes, saltBytes.length);
        new DataView(input.buffer).setUint32(inputLength, start + i);
        return crypto.subtle.digest('SHA-256', input);
      }),
    );
    const found = digests.findIndex((digest) => startsWith(new Uint8Array(digest), prefix));
    if (found >= 0) {
      const solution = { counter: start + found, derivedKey: hexOf(new Uint8Array(digests[found]!)) };
      return btoa(JSON.stringify({ challenge, solution }));
    }
  }
  throw new Error('The challenge has no solution');
}
