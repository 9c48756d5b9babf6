/**
 * All the English strings, every widget's: the shape every language file implements, so that a
 * missing string is a type error. A widget itself carries only its own part (see en/).
 */
import { biometricEnglish } from './en/biometric.js';
import { face } from './en/face.js';
import { handoffPanelEnglish } from './en/handoff.js';
import { otp } from './en/otp.js';
import { voice } from './en/voice.js';
import { biometricFirst, commonFirst, faceFirst, otpFirst, voiceFirst } from './en/first.js';

export const en = { ...commonFirst, ...biometricFirst, ...faceFirst, ...otpFirst, ...voiceFirst, ...biometricEnglish, ...handoffPanelEnglish, ...otp, ...face, ...voice };

export type Strings = typeof en;
