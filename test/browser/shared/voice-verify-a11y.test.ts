import { untilVoiceStep, voiceButton, voiceFixture } from '../support/voice.js';
import type { VoiceVerify } from '../../../src/voice-verify/voice-verify.js';
import { axeEachStep, type AxeStep } from '../support/axe-steps.js';

const toReady = async (element: VoiceVerify) => {
  voiceButton(element, 'submit').click();
  await untilVoiceStep(element, 'ready');
};
const toRecording = async (element: VoiceVerify) => {
  await toReady(element);
  voiceButton(element, 'record').click();
  await untilVoiceStep(element, 'recording');
};
const toReview = async (element: VoiceVerify) => {
  await toRecording(element);
  await untilVoiceStep(element, 'review');
};
/** A review the gate let through, whatever the engine's microphone gives: a low bar for speech. */
const GATE_OPEN = 'min-speech="0"';

const STEPS: [string, string, AxeStep<VoiceVerify>['drive']][] = [
  ['priming', '', async () => {}],
  ['permission', '', async (element) => {
    navigator.mediaDevices.getUserMedia = () => new Promise(() => {});
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'permission');
  }],
  ['ready', '', toReady],
  ['recording', '', toRecording],
  ['review', '', toReview],
  ...(['uploading', 'success', 'failure'] as const).map((step): [string, string, AxeStep<VoiceVerify>['drive']] => [
    step === 'failure' ? 'failure (no match)' : step,
    GATE_OPEN,
    async (element) => {
      await toReview(element);
      if (element.shadowRoot!.querySelector('[part~="error"]')) return { unreachable: 'the mock microphone gives no speech: the gate stops at review' };
      voiceButton(element, 'submit').click();
      await untilVoiceStep(element, step);
    },
  ]),
  ['failure (microphone blocked)', '', async (element) => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' }));
    voiceButton(element, 'submit').click();
    await untilVoiceStep(element, 'failure');
  }],
];

axeEachStep<VoiceVerify>('voice-verify', {
  fixture: (attributes, lang) => voiceFixture(`max-duration="1.5" ${attributes}`, lang),
  routes: (step) => ({
    'verify-by-voice': () =>
      step === 'success'
        ? { body: { verified: true, method: 'voice', receipt: 'r', expiresAt: null } }
        : step.startsWith('failure')
          ? { status: 422, body: { error: { code: 'no_match', message: 'no', attemptsLeft: 2 } } }
          : { pending: true },
  }),
  steps: STEPS.map(([name, attributes, drive]) => ({ name, attributes, drive })),
  timeout: 30_000,
});
