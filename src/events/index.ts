export { VerifyStepChangeEvent, type VerifyStepChangeDetail } from './step-change.js';
export { VerifyCodeSentEvent, type VerifyCodeSentDetail } from './code-sent.js';
export { VerifySuccessEvent, type VerifySuccessDetail } from './success.js';
export { VerifyFailureEvent, type VerifyFailureDetail } from './failure.js';
export { VerifyErrorEvent, type VerifyErrorDetail } from './error.js';
export { VerifyRequestEvent, type VerifyRequestDetail } from './request.js';
export { VerifyEnrolledEvent, type VerifyEnrolledDetail } from './enrolled.js';
export { VerifyOtherWayEvent, type VerifyOtherWayDetail } from './other-way.js';
export { VerifyHumanCheckEvent } from './human-check.js';
export { VerifySessionTokenEvent } from './session-token.js';
export type { VerifyMetrics, CodeEntry } from './metrics.js';

import type { VerifyStepChangeEvent } from './step-change.js';
import type { VerifyCodeSentEvent } from './code-sent.js';
import type { VerifySuccessEvent } from './success.js';
import type { VerifyFailureEvent } from './failure.js';
import type { VerifyErrorEvent } from './error.js';
import type { VerifyRequestEvent } from './request.js';
import type { VerifyEnrolledEvent } from './enrolled.js';
import type { VerifyOtherWayEvent } from './other-way.js';
import type { VerifyHumanCheckEvent } from './human-check.js';
import type { VerifySessionTokenEvent } from './session-token.js';

declare global {
  interface GlobalEventHandlersEventMap {
    'verify-step-change': VerifyStepChangeEvent;
    'verify-code-sent': VerifyCodeSentEvent;
    'verify-success': VerifySuccessEvent;
    'verify-failure': VerifyFailureEvent;
    'verify-error': VerifyErrorEvent;
    'verify-request': VerifyRequestEvent;
    'verify-enrolled': VerifyEnrolledEvent;
    'verify-other-way': VerifyOtherWayEvent;
    'verify-human-check': VerifyHumanCheckEvent;
    'verify-session-token': VerifySessionTokenEvent;
  }
}
