/**
 * The Node entry (`verify-widgets/server/node`): serves the runtime-neutral handler from Node's
 * `http` server, Express or Connect, and gives it Node's own means: a keep-alive `node:http` agent
 * to the service and node:crypto. Everything else lives in `verify-widgets/server`, which imports
 * nothing from Node.
 */
import { createHandlerOn, type HandlerInput, type VerifyHandler } from '../handler/index.js';
import { createNodeFetch } from './fetch.js';
import { nodeKeyedCrypto } from './crypto.js';

export { toNodeListener, type NodeListener } from './adapter.js';
export { createNodeFetch, type NodeFetchOptions } from './fetch.js';
export { createFacePool, FacePoolBusyError, type FacePool, type FacePoolOptions } from './face-pool.js';

/**
 * `createVerifyHandler` of `verify-widgets/server`, calling the service with `createNodeFetch()`
 * (unless given a `fetch`) and hashing and sealing with node:crypto: the same answers, for a
 * fraction of the CPU.
 */
export function createVerifyHandler(input: HandlerInput): VerifyHandler {
  return createHandlerOn({ fetch: createNodeFetch(), crypto: nodeKeyedCrypto }, input);
}
