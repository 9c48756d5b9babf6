/**
 * The widgets' classes, events and types, without registering any element: for subclassing or
 * registering under another name. Import `verify-widgets/otp-verify` (or face-, voice-) to register.
 */
export { OtpVerify } from './otp-verify/otp-verify.js';
export { FaceVerify } from './face-verify/face-verify.js';
export { VoiceVerify } from './voice-verify/voice-verify.js';
export * from './events/index.js';
export type { FaceDetectorLike } from './face-verify/later/face-detector.js';
export { registerLocale, type Strings } from './internal/localize.js';
export type { CommonStrings } from './translations/en/common.js';
export type { OtpStrings } from './translations/en/otp.js';
export type { FaceStrings } from './translations/en/face.js';
export type { VoiceStrings } from './translations/en/voice.js';
export type { DeviceFailure, ErrorCode, FailureCode, OtpStep, FaceStep, VoiceStep, VerifyStep } from './core/protocol.js';
export { en } from './translations/en.js';
