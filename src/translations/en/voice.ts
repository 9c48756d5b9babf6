import { biometricEnglish, type BiometricStrings } from './biometric.js';
import { biometricFirst, commonFirst, voiceFirst } from './first.js';

/** What <voice-verify> says. English is built in; other languages are registered (see localize). */
export const voice = {
  microphoneAsking: 'Allow the microphone when your browser asks.',
  readHeading: 'Read this aloud',
  readDigits: 'Press record, then read these numbers in your normal voice.',
  readDigitsIn: 'Press record, then read these numbers in {language}, in your normal voice.',
  readText: 'Press record, then read this in your normal voice.',
  record: 'Record',
  stop: 'Stop',
  recordingHeading: 'Recording…',
  timeLeft: '{time} left',
  level: 'Sound level',
  listening: 'Listening…',
  reviewVoiceHeading: 'Use this recording?',
  reviewVoiceProblem: 'Let’s record again',
  play: 'Listen',
  stopPlaying: 'Stop listening',
  useRecording: 'Use recording',
  recordAgain: 'Record again',
  checkingVoice: 'Checking your voice…',
  voiceVerified: 'Your voice was verified.',
  voiceEnrolled: 'Your voice is registered.',
  voice_no_match_hint: 'Speak in your usual voice, close to the microphone, in a quiet place.',
  live_digits_not_heard: 'We didn’t hear the digits. Read them aloud, clearly, in a quiet place.',
  'voice_no-speech': 'No speech heard: read the numbers aloud, close to the microphone.',
  'voice_too-quiet': 'Too quiet: speak up, or come closer to the microphone.',
  voice_clipping: 'Too loud: move back from the microphone a little.',
  'voice_too-short': 'Too short: read all the numbers before you stop.',
  microphone_denied: 'Microphone access is blocked. Allow it in your browser’s settings for this site, then try again.',
  microphone_denied_chrome: 'Microphone access is blocked. Click the microphone icon in the address bar, choose Allow, then try again.',
  microphone_denied_firefox: 'Microphone access is blocked. Click the crossed-out microphone left of the address, clear the block, then try again.',
  microphone_denied_safari: 'Microphone access is blocked. Open Safari › Settings for This Website › Microphone › Allow, then try again.',
  'microphone_no-microphone': 'No microphone was found on this device.',
  microphone_busy: 'Another app is using the microphone. Close it, then try again.',
  microphone_constraints: 'This microphone can’t be used. Try another one.',
  microphone_insecure: 'The microphone works only on a secure (https) page.',
  microphone_unsupported: 'This browser can’t record here. Open the page in your usual browser.',
};

export type VoiceStrings = BiometricStrings & typeof voiceFirst & typeof voice;

/** Everything <voice-verify> says in English: its own strings, the face and voice ones, and the common ones. */
export const voiceEnglish: VoiceStrings = { ...commonFirst, ...biometricFirst, ...voiceFirst, ...biometricEnglish, ...voice };

/** What it says after its first step, which comes with those steps' code (the first step's words are in first.ts). */
export const voiceLater = { ...biometricEnglish, ...voice };
