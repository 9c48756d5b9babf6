export { VerifyStepChangeEvent } from './step-change.js';
export { VerifyCodeSentEvent } from './code-sent.js';
export { VerifySuccessEvent } from './success.js';
export { VerifyFailureEvent } from './failure.js';
export { VerifyErrorEvent } from './error.js';
export { VerifyRequestEvent } from './request.js';
export { VerifyEnrolledEvent } from './enrolled.js';

import type { VerifyStepChangeEvent } from './step-change.js';
import type { VerifyCodeSentEvent } from './code-sent.js';
import type { VerifySuccessEvent } from './success.js';
import type { VerifyFailureEvent } from './failure.js';
import type { VerifyErrorEvent } from './error.js';
import type { VerifyRequestEvent } from './request.js';
import type { VerifyEnrolledEvent } from './enrolled.js';

declare global {
  interface GlobalEventHandlersEventMap {
    'verify-step-change': VerifyStepChangeEvent;
    'verify-code-sent': VerifyCodeSentEvent;
    'verify-success': VerifySuccessEvent;
    'verify-failure': VerifyFailureEvent;
    'verify-error': VerifyErrorEvent;
    'verify-request': VerifyRequestEvent;
    'verify-enrolled': VerifyEnrolledEvent;
  }
}
