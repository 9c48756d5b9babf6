/**
 * Everything <face-verify> needs after its first step, fetched as one chunk: the steps' markup, the
 * flow's transition, all its English and the words for each failure (BiometricElement's LaterSteps),
 * and the camera's code, which the first press needs at once.
 */
export { faceLater as english } from '../../translations/en/face.js';
export { renderFaceStep as render, liveInstruction } from './face-verify.templates.js';
export { transitionFace as transition, readyToCapture } from './face-verify.flow.js';
export { failureText } from '../../internal/later/failure-text.js';
export { captureTools } from './capture.js';
export { laterStyles as styles } from './face-verify.styles.js';
