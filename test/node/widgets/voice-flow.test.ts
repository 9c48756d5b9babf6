import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initialVoiceState, transitionVoice, type VoiceEvent, type VoiceState } from '../../../src/voice-verify/later/voice-verify.flow.js';

const run = (...events: VoiceEvent[]) => events.reduce<VoiceState>(transitionVoice, initialVoiceState);
const recorded = (problems: ('no-speech' | 'too-short')[] = []) =>
  run({ type: 'start' }, { type: 'granted' }, { type: 'record' }, { type: 'recorded', audio: problems.length ? '' : 'UklGR', seconds: 4, problems });

describe('<voice-verify> flow', () => {
  it('priming -> permission -> ready -> recording -> review -> uploading -> success', () => {
    const steps = ([{ type: 'start' }, { type: 'granted' }, { type: 'record' }, { type: 'recorded', audio: 'UklGR', seconds: 4, problems: [] }, { type: 'confirm' }, { type: 'done' }] as VoiceEvent[])
      .reduce<{ state: VoiceState; steps: string[] }>(({ state, steps }, event) => {
        const next = transitionVoice(state, event);
        return { state: next, steps: [...steps, next.step] };
      }, { state: initialVoiceState, steps: [] }).steps;
    assert.deepEqual(steps, ['permission', 'ready', 'recording', 'review', 'uploading', 'success']);
  });

  it('a recording the gate refused cannot be sent; recording again asks for the microphone again', () => {
    const refused = recorded(['no-speech']);
    assert.equal(transitionVoice(refused, { type: 'confirm' }), refused);
    assert.equal(transitionVoice(refused, { type: 'rerecord' }).step, 'permission');
  });

  it('warnings change while recording, and only then', () => {
    const recording = run({ type: 'start' }, { type: 'granted' }, { type: 'record' });
    const warned = transitionVoice(recording, { type: 'warning', problem: 'too-quiet' });
    assert.deepEqual(warned, { step: 'recording', warning: 'too-quiet' });
    assert.equal(transitionVoice(warned, { type: 'warning', problem: 'too-quiet' }), warned);
    assert.equal(transitionVoice(recorded(), { type: 'warning', problem: 'clipping' }).step, 'review');
  });

  for (const [reason, canRetry] of [['denied', true], ['no-microphone', true], ['busy', true], ['insecure', false], ['unsupported', false]] as const) {
    it(`a microphone that is ${reason}: failure${canRetry ? ', with another try' : ''}`, () => {
      const failed = run({ type: 'start' }, { type: 'microphone-failed', reason });
      assert.deepEqual(failed, { step: 'failure', reason, canRetry });
      if (canRetry) assert.equal(transitionVoice(failed, { type: 'retry' }).step, 'permission');
    });
  }

  it('a non-match offers a retry until no attempts are left', () => {
    const uploading = transitionVoice(recorded(), { type: 'confirm' });
    assert.equal(transitionVoice(uploading, { type: 'failed', code: 'no_match', attemptsLeft: 1 }).step, 'failure');
    assert.equal((transitionVoice(uploading, { type: 'failed', code: 'no_match', attemptsLeft: 1 }) as { canRetry: boolean }).canRetry, true);
    assert.equal((transitionVoice(uploading, { type: 'failed', code: 'no_match', attemptsLeft: 0 }) as { canRetry: boolean }).canRetry, false);
  });

  it('digits not heard: says why, offers a new recording (of new digits) until no attempts are left', () => {
    const uploading = transitionVoice(recorded(), { type: 'confirm' });
    const failed = transitionVoice(uploading, { type: 'failed', code: 'liveness_failed', livenessReason: 'digits_not_heard', attemptsLeft: 2 });
    assert.deepEqual(failed, { step: 'failure', reason: 'liveness_failed', attemptsLeft: 2, livenessReason: 'digits_not_heard', canRetry: true });
    assert.equal(transitionVoice(failed, { type: 'retry' }).step, 'permission');
    assert.equal((transitionVoice(uploading, { type: 'failed', code: 'liveness_failed', livenessReason: 'digits_not_heard', attemptsLeft: 0 }) as { canRetry: boolean }).canRetry, false);
  });

  it('the host\'s digits not fetched (the network dropped) at the prompt: another try, which asks again', () => {
    const ready = run({ type: 'start' }, { type: 'granted' });
    const failed = transitionVoice(ready, { type: 'failed', code: 'upstream_unavailable' });
    assert.deepEqual(failed, { step: 'failure', reason: 'upstream_unavailable', retryAfter: undefined, canRetry: true });
    assert.equal(transitionVoice(failed, { type: 'retry' }).step, 'permission');
  });

  it('a fault on the way keeps the recording: try again sends it again, record again still opens the microphone', () => {
    const uploading = transitionVoice(recorded(), { type: 'confirm' });
    for (const code of ['upstream_unavailable', 'rate_limited'] as const) {
      const failed = transitionVoice(uploading, { type: 'failed', code });
      assert.deepEqual(failed, { step: 'failure', reason: code, retryAfter: undefined, canRetry: true, kept: 'UklGR' });
      assert.deepEqual(transitionVoice(failed, { type: 'retry' }), { step: 'uploading', audio: 'UklGR' });
      assert.equal(transitionVoice(failed, { type: 'rerecord' }).step, 'permission');
    }
    const judged = transitionVoice(uploading, { type: 'failed', code: 'bad_sample' });
    assert.equal(transitionVoice(judged, { type: 'retry' }).step, 'permission');
  });

  it('a hidden page releases the microphone: back to the start from ready or recording', () => {
    assert.equal(transitionVoice(run({ type: 'start' }, { type: 'granted' }, { type: 'record' }), { type: 'released' }).step, 'priming');
    const review = recorded();
    assert.equal(transitionVoice(review, { type: 'released' }), review);
  });

  it('the recording steps, their code not fetched (the network dropped), offer another try, which asks for the microphone again', () => {
    const state = run({ type: 'start' }, { type: 'failed', code: 'upstream_unavailable' });
    assert.deepEqual(state, { step: 'failure', reason: 'upstream_unavailable', retryAfter: undefined, canRetry: true });
    assert.equal(transitionVoice(state, { type: 'retry' }).step, 'permission');
  });

  it('continue on a phone: from the start or a failure to the link, back to the start, or done there; on the phone, an ended link stops any step but success', () => {
    const failed = run({ type: 'start' }, { type: 'microphone-failed', reason: 'no-microphone' });
    for (const from of [initialVoiceState, failed]) assert.equal(transitionVoice(from, { type: 'handoff' }).step, 'handoff');
    assert.equal(transitionVoice(run({ type: 'start' }), { type: 'handoff' }).step, 'permission');
    const linked = run({ type: 'handoff' });
    assert.equal(transitionVoice(linked, { type: 'handoff-ended' }).step, 'priming');
    assert.equal(transitionVoice(linked, { type: 'done' }).step, 'success');
    assert.equal(transitionVoice(initialVoiceState, { type: 'handoff-ended' }), initialVoiceState);
    const recording = run({ type: 'start' }, { type: 'granted' }, { type: 'record' });
    assert.deepEqual(transitionVoice(recording, { type: 'blocked', reason: 'handoff_ended' }), { step: 'failure', reason: 'handoff_ended', canRetry: false });
    const done = run({ type: 'handoff' }, { type: 'done' });
    assert.equal(transitionVoice(done, { type: 'blocked', reason: 'handoff_ended' }), done);
    // An account problem still stops only where the account is checked.
    assert.equal(transitionVoice(recording, { type: 'blocked', reason: 'not_enrolled' }), recording);
  });
});
