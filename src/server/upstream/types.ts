/** What the service client takes and gives: the service's requests, and answers in one stable shape. */
import type { OtpChannel } from '../../core/protocol.js';

export interface ServiceClientOptions {
  /** Base URL ending in `/api/v2`. */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout; 10 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface SendOtpRequest {
  method?: OtpChannel;
  phone?: string;
  email?: string;
  template_id?: number;
  /** A code chosen by the server; never let a browser choose it. */
  otp?: string;
  fallback_email?: string;
}

export interface VerifyOtpRequest {
  phone?: string;
  email?: string;
  otp: string;
}

export interface FaceRequest {
  user_id: string;
  registered_face_image: string;
  query_face_image: string;
}

export interface VoiceRequest {
  user_id: string;
  registered_audio: string;
  query_audio: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface Balance {
  balance: number;
  message?: string;
}
export interface OtpSent {
  message?: string;
}
export interface OtpVerified {
  message?: string;
}
export interface Comparison {
  userId: string;
  match: boolean;
  message?: string;
}

export interface ServiceClient {
  balance(options?: CallOptions): Promise<Balance>;
  sendOtp(request: SendOtpRequest, options?: CallOptions): Promise<OtpSent>;
  /** Resolves only when the code is right; otherwise throws `wrong_code`, `code_expired`... */
  verifyOtp(request: VerifyOtpRequest, options?: CallOptions): Promise<OtpVerified>;
  /** A non-match resolves with `match: false`, whether the service said 200 or 422. */
  verifyByFace(request: FaceRequest, options?: CallOptions): Promise<Comparison>;
  verifyByVoice(request: VoiceRequest, options?: CallOptions): Promise<Comparison>;
}
