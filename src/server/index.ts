/**
 * Server-side entry: the host handler the widgets call, receipts, stores, and the service client.
 * Fetch API and Web Crypto only, for any runtime; Node's own server is served from `./node.js`.
 */
export { createVerifyHandler, DEFAULT_LIMITS, SAMPLE_FIELDS, type VerifyHandler, type VerifyHandlerOptions, type VerifiedEvent, type Limits, type Window, type DestinationWindow, type AbuseEvent, type LogEntry } from './handler/index.js';
export { verifyReceipt, ReceiptError, hashIdentifier, type ReceiptClaims, type ReceiptFailure, type VerifyReceiptOptions } from './receipts.js';
export { sessionTokenAuth, SESSION_TOKEN_AUDIENCE, MAX_SESSION_TOKEN_SECONDS, type SessionTokenOptions, type SessionTokenHooks, type SessionTokenClaims } from './site/session-token.js';
export { referenceCallbacks, signatureFor, ReferenceCallbackError, type ReferenceCallbackOptions } from './site/reference-callbacks.js';
export type { VerifyStore } from './store/store.js';
export type { PlanAnswer, PlanStep, PlanStop, Weigh } from './store/plan.js';
export { MemoryStore } from './store/memory.js';
export { RedisStore, REDIS_CLIENT_OPTIONS, REDIS_CLUSTER_OPTIONS, type RedisStoreOptions, type RedisClient } from './store/redis.js';
export { UpstashStore, UPSTASH_CLIENT_OPTIONS, type UpstashStoreOptions, type UpstashClient, type UpstashClientFactory } from './store/upstash.js';
export { DurableObjectStore, VerifyStoreObject, type DurableObjectStoreOptions, type DurableObjectNamespaceLike, type DurableObjectStateLike } from './store/durable-object.js';
export { StoreUnavailableError } from './store/deadline.js';
export { UnreadablePictureError, type FaceObserver, type FaceFound, type FrameParts } from './liveness/judge.js';
export { UnreadableRecordingError, type DigitListener, type DigitLanguage } from './liveness/digits.js';
export type { Luma } from './liveness/parallax.js';
export { createServiceClient } from './upstream/client.js';
export type {
  ServiceClient,
  ServiceClientOptions,
  SendOtpRequest,
  VerifyOtpRequest,
  FaceRequest,
  VoiceRequest,
  CallOptions,
  Balance,
  OtpSent,
  OtpVerified,
  Comparison,
} from './upstream/types.js';
export { ServiceError, type UpstreamFault } from './upstream/errors.js';
export type { FetchHandler, RequestInfo } from '../core/http.js';
export * from '../core/protocol.js';
