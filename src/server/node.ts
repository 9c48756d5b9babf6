/**
 * The Node entry (`verify-widgets/server/node`): serves the runtime-neutral handler from Node's
 * `http` server, Express or Connect. Everything else lives in `verify-widgets/server`, which
 * imports nothing from Node.
 */
export { toNodeListener, type NodeListener } from './node-adapter.js';
