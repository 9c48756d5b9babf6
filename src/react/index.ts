'use client';
/**
 * React components for the three widgets, through @lit/react: properties set as properties, and
 * the `verify-*` events as typed `onVerify…` props. Client components; importing this module
 * registers the elements. For one widget alone, import `verify-widgets/react/otp-verify` (or
 * `face-verify`, `voice-verify`).
 *
 * ```tsx
 * import { OtpVerify } from 'verify-widgets/react';
 * <OtpVerify endpoint="/api/verify" country="SA" onVerifySuccess={(e) => send(e.detail.receipt)} />
 * ```
 */
export { OtpVerify } from './otp-verify.js';
export { FaceVerify } from './face-verify.js';
export { VoiceVerify } from './voice-verify.js';
