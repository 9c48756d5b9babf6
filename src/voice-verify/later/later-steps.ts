/**
 * Everything <voice-verify> needs after its first step, fetched as one chunk: the steps' markup, the
 * flow's transition, all its English and the words for each failure (BiometricElement's LaterSteps),
 * and the microphone's code, which the first press needs at once.
 */
export { voiceLater as english } from '../../translations/en/voice.js';
export { renderVoiceStep as render } from './voice-verify.templates.js';
export { freshDigits } from './voice-digits.js';
export { transitionVoice as transition } from './voice-verify.flow.js';
export { failureText } from '../../internal/later/failure-text.js';
export { recordingTools } from './recording-tools.js';
export { laterStyles as styles } from './voice-verify.styles.js';
