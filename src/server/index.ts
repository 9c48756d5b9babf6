/** Server-side entry: the service client, and (with the host handler) what a host mounts. */
export {
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  type SendOtpRequest,
  type VerifyOtpRequest,
  type FaceRequest,
  type VoiceRequest,
  type CallOptions,
  type Balance,
  type OtpSent,
  type OtpVerified,
  type Comparison,
} from './service-client.js';
export { ServiceError, type UpstreamFault } from './service-error.js';
export { toNodeListener, type NodeListener } from './node-adapter.js';
export type { FetchHandler } from './http.js';
export { ERROR_CODES, type ErrorCode, type OtpChannel } from '../internal/protocol.js';
