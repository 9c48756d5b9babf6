/** The typed `onVerify…` props of the React components: one per \`verify-*\` event. */
import type { EventName } from '@lit/react';
import type {
  VerifyCodeSentEvent,
  VerifyEnrolledEvent,
  VerifyErrorEvent,
  VerifyFailureEvent,
  VerifyHumanCheckEvent,
  VerifyOtherWayEvent,
  VerifyRequestEvent,
  VerifySessionTokenEvent,
  VerifyStepChangeEvent,
  VerifySuccessEvent,
} from '../events/index.js';

export const sharedEvents = {
  onVerifyStepChange: 'verify-step-change' as EventName<VerifyStepChangeEvent>,
  onVerifySuccess: 'verify-success' as EventName<VerifySuccessEvent>,
  onVerifyFailure: 'verify-failure' as EventName<VerifyFailureEvent>,
  onVerifyError: 'verify-error' as EventName<VerifyErrorEvent>,
  onVerifyRequest: 'verify-request' as EventName<VerifyRequestEvent>,
  onVerifySessionToken: 'verify-session-token' as EventName<VerifySessionTokenEvent>,
};

export const otpEvents = {
  ...sharedEvents,
  onVerifyCodeSent: 'verify-code-sent' as EventName<VerifyCodeSentEvent>,
  onVerifyHumanCheck: 'verify-human-check' as EventName<VerifyHumanCheckEvent>,
};
export const biometricEvents = {
  ...sharedEvents,
  onVerifyEnrolled: 'verify-enrolled' as EventName<VerifyEnrolledEvent>,
  onVerifyOtherWay: 'verify-other-way' as EventName<VerifyOtherWayEvent>,
};
