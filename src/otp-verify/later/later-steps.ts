/**
 * Everything <otp-verify> needs after its contact form, fetched as one chunk: the steps' markup and
 * look, the flow's transition, the rest of its English, its calls, and the code field with WebOTP.
 */
export { otpLater as english } from '../../translations/en/otp.js';
export { laterStyles as styles } from './otp-verify.styles.js';
export { renderOtpStep as render, problemText, codeFieldWords } from './otp-verify.templates.js';
export { transition, otpMeasure } from './otp-verify.flow.js';
export { sendCode, checkCode, failed } from './otp-requests.js';
export { codeStep } from './code-step.js';
export { waits } from './countdown-controller.js';
