/**
 * React components for the three widgets, through @lit/react: properties set as properties, and
 * the `verify-*` events as typed `onVerify…` props. Importing this module registers the elements.
 *
 * ```tsx
 * import { OtpVerify } from 'verify-widgets/react';
 * <OtpVerify endpoint="/api/verify" country="SA" onVerifySuccess={(e) => send(e.detail.receipt)} />
 * ```
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { OtpVerify as OtpVerifyElement } from '../otp-verify/define.js';
import { FaceVerify as FaceVerifyElement } from '../face-verify/define.js';
import { VoiceVerify as VoiceVerifyElement } from '../voice-verify/define.js';
import type {
  VerifyCodeSentEvent,
  VerifyEnrolledEvent,
  VerifyErrorEvent,
  VerifyFailureEvent,
  VerifyRequestEvent,
  VerifyStepChangeEvent,
  VerifySuccessEvent,
} from '../events/index.js';

const shared = {
  onVerifyStepChange: 'verify-step-change' as EventName<VerifyStepChangeEvent>,
  onVerifySuccess: 'verify-success' as EventName<VerifySuccessEvent>,
  onVerifyFailure: 'verify-failure' as EventName<VerifyFailureEvent>,
  onVerifyError: 'verify-error' as EventName<VerifyErrorEvent>,
  onVerifyRequest: 'verify-request' as EventName<VerifyRequestEvent>,
};
const biometric = { ...shared, onVerifyEnrolled: 'verify-enrolled' as EventName<VerifyEnrolledEvent> };

export const OtpVerify = createComponent({
  tagName: 'otp-verify',
  elementClass: OtpVerifyElement,
  react: React,
  events: { ...shared, onVerifyCodeSent: 'verify-code-sent' as EventName<VerifyCodeSentEvent> },
});

export const FaceVerify = createComponent({ tagName: 'face-verify', elementClass: FaceVerifyElement, react: React, events: biometric });

export const VoiceVerify = createComponent({ tagName: 'voice-verify', elementClass: VoiceVerifyElement, react: React, events: biometric });
