/**
 * The Node entry (`verify-widgets/server/node`): serves the runtime-neutral handler from Node's
 * `http` server, Express or Connect, and gives it Node's own means: a keep-alive `node:http` agent
 * to the service and node:crypto. Everything else lives in `verify-widgets/server`, which imports
 * nothing from Node.
 */
import { createRequire } from 'node:module';
import { createHandlerOn, type HandlerInput, type VerifyHandler } from '../handler/index.js';
import { NO_LIVENESS } from '../handler/options.js';
import { createNodeFetch } from './fetch.js';
import { nodeKeyedCrypto } from './crypto.js';
import { createFacePool, type FacePool } from './face-pool.js';
import { createDigitListener, type DigitListenerHandle } from './digit-listener.js';

export { toNodeListener, type NodeListener } from './adapter.js';
export { createNodeFetch, type NodeFetchOptions } from './fetch.js';
export { createFacePool, FacePoolBusyError, type FacePool, type FacePoolOptions } from './face-pool.js';
export { createDigitListener, DigitListenerBusyError, DigitModelsMissingError, type DigitListenerHandle } from './digit-listener.js';

const FACE_MODELS = ['@vladmandic/face-api', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', 'onnxruntime-node'];
let shared: FacePool | undefined;
let sharedDigits: DigitListenerHandle | undefined;

/**
 * The face models' packages are optional peers of this one, not installed: the handler cannot check
 * faces live. `install` is the command that brings them; onnxruntime-node's own install script
 * fetches GPU files from outside the npm registry, which a CPU server does not need.
 */
export class FaceModelsMissingError extends TypeError {
  override name = 'FaceModelsMissingError';
  readonly install: string;
  constructor(readonly missing: string[]) {
    const install = `${missing.includes('onnxruntime-node') ? 'ONNXRUNTIME_NODE_INSTALL=skip ' : ''}npm install ${missing.join(' ')}`;
    super(`${NO_LIVENESS} The Node entry runs it with ${missing.join(', ')} installed: ${install}.`);
    this.install = install;
  }
}

/**
 * The live face check of a handler serving faces that was given none: one pool of face models for
 * the process, its workers started on the first check. The models are optional peers of the
 * package, so their absence is said at start rather than at a person's first face.
 */
function defaultLiveness(): FacePool {
  const require = createRequire(import.meta.url);
  const missing = FACE_MODELS.filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) throw new FaceModelsMissingError(missing);
  return (shared ??= createFacePool());
}

/** The digits' listener of a handler serving voice that was given none: one for the process, as the face pool. */
function defaultVoiceLiveness(): DigitListenerHandle {
  return (sharedDigits ??= createDigitListener());
}

/**
 * `createVerifyHandler` of `verify-widgets/server`, calling the service with `createNodeFetch()`
 * (unless given a `fetch`), hashing and sealing with node:crypto (the same answers, for a fraction
 * of the CPU), checking faces live with `createFacePool()` and hearing voices' digits with
 * `createDigitListener()` unless given others.
 */
export function createVerifyHandler(input: HandlerInput): VerifyHandler {
  return createHandlerOn(
    { fetch: createNodeFetch(), crypto: nodeKeyedCrypto, liveness: defaultLiveness, voiceLiveness: defaultVoiceLiveness, outlivesResponse: true },
    input,
  );
}
