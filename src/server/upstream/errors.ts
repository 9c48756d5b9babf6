import type { ErrorCode } from '../../core/protocol.js';

/** Why an upstream call gave no usable answer; `ambiguous` ones may have reached the service. */
export type UpstreamFault = 'timeout' | 'network' | 'redirect' | 'not_json' | 'server_error' | 'unexpected_status' | 'bad_shape';

/** The one error the service client throws: the HTTP status, the service's messages and a stable code. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  /** 0 when no HTTP answer arrived (timeout, network). */
  readonly status: number;
  readonly code: ErrorCode;
  /** The service's own messages, in order; may be empty. */
  readonly messages: string[];
  /** Seconds to wait, from Retry-After, for `rate_limited`. */
  readonly retryAfter?: number;
  /** For `upstream_unavailable`: what went wrong. */
  readonly fault?: UpstreamFault;
  /**
   * True when the request may have been carried out although no answer says so (timeout, network
   * failure, 5xx). A paid request must never be re-sent automatically after one.
   */
  readonly ambiguous: boolean;

  constructor(init: { code: ErrorCode; status: number; messages?: string[]; retryAfter?: number; fault?: UpstreamFault; message?: string }) {
    super(init.message ?? init.messages?.[0] ?? init.code);
    this.code = init.code;
    this.status = init.status;
    this.messages = init.messages ?? [];
    this.retryAfter = init.retryAfter;
    this.fault = init.fault;
    this.ambiguous = init.fault === 'timeout' || init.fault === 'network' || init.fault === 'server_error';
  }
}
