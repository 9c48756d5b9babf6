import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initialFaceState, readyToCapture, transitionFace, type FaceEvent, type FaceState } from '../../../src/face-verify/later/face-verify.flow.js';

const run = (...events: FaceEvent[]) => events.reduce<FaceState>(transitionFace, initialFaceState);
const preview = () => run({ type: 'start' }, { type: 'granted' });

describe('<face-verify> flow', () => {
  it('priming -> permission -> preview -> review -> uploading -> success', () => {
    const steps: string[] = [];
    let state = initialFaceState;
    for (const event of [
      { type: 'start' },
      { type: 'granted' },
      { type: 'capture', image: 'b64', source: 'camera' },
      { type: 'confirm' },
      { type: 'done' },
    ] as FaceEvent[]) {
      state = transitionFace(state, event);
      steps.push(state.step);
    }
    assert.deepEqual(steps, ['permission', 'preview', 'review', 'uploading', 'success']);
  });

  it('a hidden page releases the camera: from the preview back to the start, elsewhere nothing', () => {
    assert.equal(transitionFace(preview(), { type: 'released' }).step, 'priming');
    const review = transitionFace(preview(), { type: 'capture', image: 'b64', source: 'camera' });
    assert.equal(transitionFace(review, { type: 'released' }), review);
  });

  it('captures by itself only once the quality has held steady', () => {
    let state = transitionFace(preview(), { type: 'quality', problems: ['too-dark'], now: 0 });
    assert.equal(readyToCapture(state, 5000), false);
    state = transitionFace(state, { type: 'quality', problems: [], now: 1000 });
    assert.equal(readyToCapture(state, 1500), false);
    state = transitionFace(state, { type: 'quality', problems: [], now: 1600 });
    assert.equal(readyToCapture(state, 1950), true, 'steady since 1000');
    state = transitionFace(state, { type: 'quality', problems: ['blurry'], now: 2000 });
    assert.equal(readyToCapture(state, 9000), false, 'a problem restarts the wait');
  });

  for (const [reason, canRetry] of [['denied', true], ['no-camera', true], ['busy', true], ['constraints', true], ['insecure', false], ['unsupported', false]] as const) {
    it(`a camera that is ${reason} is never a dead end: upload offered${canRetry ? ', retry too' : ''}`, () => {
      const state = run({ type: 'start' }, { type: 'camera-failed', reason, filesAllowed: true });
      assert.deepEqual(state, { step: 'failure', reason, canRetry, canUpload: true });
      assert.equal(transitionFace(state, { type: 'capture', image: 'file', source: 'file' }).step, 'review');
    });
  }

  it('retake goes back to the camera; from a file, back to the start', () => {
    assert.equal(transitionFace(transitionFace(preview(), { type: 'capture', image: 'x', source: 'camera' }), { type: 'retake' }).step, 'permission');
    assert.equal(transitionFace(run({ type: 'capture', image: 'x', source: 'file' }), { type: 'retake' }).step, 'priming');
  });

  it('a non-match offers a retry, by camera or by file, until the handler says no attempts are left', () => {
    const uploading = transitionFace(transitionFace(preview(), { type: 'capture', image: 'x', source: 'camera' }), { type: 'confirm' });
    const once = transitionFace(uploading, { type: 'failed', code: 'no_match', attemptsLeft: 2 });
    assert.deepEqual(once, { step: 'failure', reason: 'no_match', attemptsLeft: 2, canRetry: true, canUpload: true });
    assert.equal(transitionFace(once, { type: 'retry' }).step, 'permission');
    const last = transitionFace(uploading, { type: 'failed', code: 'no_match', attemptsLeft: 0 });
    assert.deepEqual(last, { step: 'failure', reason: 'no_match', attemptsLeft: 0, canRetry: false, canUpload: false });
    assert.equal(transitionFace(last, { type: 'retry' }), last);
  });

  it('a sample the service cannot use offers a retake or a file; not enrolled is final', () => {
    const uploading = transitionFace(transitionFace(preview(), { type: 'capture', image: 'x', source: 'camera' }), { type: 'confirm' });
    assert.deepEqual(transitionFace(uploading, { type: 'failed', code: 'bad_sample' }), { step: 'failure', reason: 'bad_sample', retryAfter: undefined, canRetry: true, canUpload: true });
    assert.deepEqual(transitionFace(uploading, { type: 'failed', code: 'not_enrolled' }), { step: 'failure', reason: 'not_enrolled', canRetry: false, canUpload: false });
  });

  it('a fault on the way keeps the photo: try again sends it again, retake still opens the camera', () => {
    const uploading = transitionFace(transitionFace(preview(), { type: 'capture', image: 'photo', source: 'camera' }), { type: 'confirm' });
    for (const code of ['upstream_unavailable', 'rate_limited'] as const) {
      const failed = transitionFace(uploading, { type: 'failed', code, retryAfter: 3 });
      assert.deepEqual(failed, { step: 'failure', reason: code, retryAfter: 3, canRetry: true, canUpload: false, kept: { image: 'photo', source: 'camera' } });
      assert.deepEqual(transitionFace(failed, { type: 'retry' }), { step: 'uploading', image: 'photo', source: 'camera' });
      assert.equal(transitionFace(failed, { type: 'retake' }).step, 'permission');
    }
    const fromFile = transitionFace(run({ type: 'capture', image: 'file', source: 'file' }, { type: 'confirm' }), { type: 'failed', code: 'upstream_unavailable' });
    assert.equal(transitionFace(fromFile, { type: 'retake' }).step, 'priming');
    // A photo the service judged is not sent again.
    assert.equal(transitionFace(transitionFace(uploading, { type: 'failed', code: 'bad_sample' }), { type: 'retake' }).step, 'failure');
  });

  it('ignores events that do not belong to the step', () => {
    assert.equal(transitionFace(initialFaceState, { type: 'confirm' }), initialFaceState);
    assert.equal(transitionFace(initialFaceState, { type: 'capture', image: 'x', source: 'camera' }), initialFaceState);
    assert.equal(transitionFace(preview(), { type: 'done' }).step, 'preview');
  });

  it('gives no verdict before the first frame is measured', () => {
    const opened = transitionFace(transitionFace(initialFaceState, { type: 'start' }), { type: 'granted' });
    assert.deepEqual(opened, { step: 'preview', problems: null, steadySince: null });
    assert.equal(readyToCapture(opened, 10_000, 0), false);
  });

  it('an unreadable file, and an account problem, end on a failure the element can lead on from', () => {
    const refused = transitionFace(initialFaceState, { type: 'file-refused' });
    assert.deepEqual(refused, { step: 'failure', reason: 'bad_file', canRetry: true, canUpload: true });
    const blocked = transitionFace(initialFaceState, { type: 'blocked', reason: 'signed_out' });
    assert.deepEqual(blocked, { step: 'failure', reason: 'signed_out', canRetry: false, canUpload: false });
    assert.deepEqual(transitionFace(blocked, { type: 'restart' }), { step: 'priming' });
  });

  describe('a live challenge', () => {
    const challenged = () => transitionFace(transitionFace(preview(), { type: 'live' }), { type: 'challenge', nonce: 'n', moves: ['left', 'up'] });
    /** The film's next frames, four a second. */
    const film = (state: FaceState, ...images: string[]) =>
      images.reduce((s, image) => transitionFace(s, { type: 'frame', image, at: s.step === 'challenge' ? 250 * (s.live?.video.length ?? 0) : 0 }), state);

    it('the framed face starts a challenge; its frames and their times are filmed through each step asked, then the answer goes', () => {
      assert.deepEqual(transitionFace(preview(), { type: 'live' }), { step: 'challenge', live: null });
      let state = challenged();
      assert.deepEqual(state, { step: 'challenge', live: { nonce: 'n', moves: ['left', 'up'], video: [], times: [], asked: 0, filmed: false } });
      assert.deepEqual(transitionFace(state, { type: 'filmed' }), state, 'no film without a frame');
      state = film(state, 'front', 'left');
      state = transitionFace(state, { type: 'ask' });
      state = transitionFace(transitionFace(state, { type: 'ask' }), { type: 'ask' });
      assert.equal(state.step === 'challenge' && state.live?.asked, 2, 'no step beyond the movements');
      state = film(state, 'up');
      assert.equal(state.step, 'challenge');
      state = transitionFace(state, { type: 'filmed' });
      assert.deepEqual(state, { step: 'uploading', image: 'front', source: 'camera', live: { nonce: 'n', moves: ['left', 'up'], video: ['front', 'left', 'up'], times: [0, 250, 500], asked: 2, filmed: true } });
    });

    it('a refused answer says which movement, offers no file, and a retry frames the face for a new challenge', () => {
      let state = challenged();
      state = transitionFace(film(state, 'front', 'left', 'up'), { type: 'filmed' });
      const refused = transitionFace(state, { type: 'failed', code: 'liveness_failed', attemptsLeft: 3, move: 'left' });
      assert.deepEqual(refused, { step: 'failure', reason: 'liveness_failed', attemptsLeft: 3, move: 'left', canRetry: true, canUpload: false });
      assert.equal(transitionFace(refused, { type: 'retry' }).step, 'permission');
      const lost = transitionFace(state, { type: 'failed', code: 'upstream_unavailable', retryAfter: 2 });
      assert.equal(transitionFace(lost, { type: 'retry' }).step, 'permission', 'a spent challenge is not sent again');
      assert.equal((transitionFace(state, { type: 'failed', code: 'liveness_failed', attemptsLeft: 0 }) as Extract<FaceState, { step: 'failure' }>).canRetry, false);
    });

    it('a camera lost mid-challenge goes back to the start; a late challenge or frame changes nothing', () => {
      assert.deepEqual(transitionFace(challenged(), { type: 'released' }), { step: 'priming' });
      assert.equal(transitionFace(preview(), { type: 'frame', image: 'x', at: 0 }).step, 'preview');
      assert.deepEqual(transitionFace(challenged(), { type: 'challenge', nonce: 'other', moves: ['down', 'right'] }), challenged());
    });

    it('the camera step, its code not fetched (the network dropped), offers another try, which opens the camera again', () => {
      const state = run({ type: 'start' }, { type: 'failed', code: 'upstream_unavailable' });
      assert.deepEqual(state, { step: 'failure', reason: 'upstream_unavailable', retryAfter: undefined, canRetry: true, canUpload: false });
      assert.equal(transitionFace(state, { type: 'retry' }).step, 'permission');
    });

    it('with light: after the movements, waits for the person to start the colours, takes a frame under each, then sends it all', () => {
      const light = { colours: ['#ffffff', '#0000ff', '#00ff00'], holdMs: 600 };
      let state = transitionFace(transitionFace(preview(), { type: 'live' }), { type: 'challenge', nonce: 'n', moves: ['left', 'up'], light });
      state = transitionFace(film(state, 'front', 'left', 'up'), { type: 'filmed' });
      const filmed = { nonce: 'n', moves: ['left', 'up'], video: ['front', 'left', 'up'], times: [0, 250, 500], asked: 0, filmed: true };
      assert.deepEqual(state, { step: 'challenge', live: { ...filmed, light, lit: [] } }, 'warned, not yet lit');
      assert.deepEqual(transitionFace(state, { type: 'frame', image: 'extra', at: 750 }), state, 'no frame once filmed');
      assert.deepEqual(transitionFace(state, { type: 'lit', image: 'early' }), state, 'no colour before the press');
      state = transitionFace(state, { type: 'light' });
      assert.equal(state.step === 'challenge' && state.lighting, true);
      assert.deepEqual(transitionFace(state, { type: 'light' }), state, 'pressed twice: the colours run once');
      for (const image of ['white', 'blue']) state = transitionFace(state, { type: 'lit', image });
      assert.equal(state.step, 'challenge');
      state = transitionFace(state, { type: 'lit', image: 'green' });
      assert.deepEqual(state, { step: 'uploading', image: 'front', source: 'camera', live: { ...filmed, light, lit: ['white', 'blue', 'green'] } });
    });

    it('with light: Stop or Escape mid-colours goes back to the start, and the light asked before the movements end changes nothing', () => {
      const light = { colours: ['#ffffff', '#0000ff'], holdMs: 600 };
      let state = transitionFace(transitionFace(preview(), { type: 'live' }), { type: 'challenge', nonce: 'n', moves: ['left', 'up'], light });
      assert.deepEqual(transitionFace(state, { type: 'light' }), state, 'not before the movements are done');
      state = transitionFace(film(state, 'front', 'left', 'up'), { type: 'filmed' });
      state = transitionFace(transitionFace(state, { type: 'light' }), { type: 'lit', image: 'white' });
      assert.deepEqual(transitionFace(state, { type: 'released' }), { step: 'priming' });
    });

    it('with light: the face seen away from the oval is kept through the colours\' frames until it is back; never outside them', () => {
      const light = { colours: ['#ffffff', '#0000ff', '#00ff00'], holdMs: 600 };
      let state = transitionFace(transitionFace(preview(), { type: 'live' }), { type: 'challenge', nonce: 'n', moves: ['left', 'up'], light });
      state = transitionFace(film(state, 'front', 'left', 'up'), { type: 'filmed' });
      assert.deepEqual(transitionFace(state, { type: 'close-face', away: true }), state, 'not at the warning');
      state = transitionFace(state, { type: 'light' });
      assert.equal(transitionFace(state, { type: 'close-face', away: false }), state, 'no change: the same state');
      state = transitionFace(transitionFace(state, { type: 'close-face', away: true }), { type: 'lit', image: 'white' });
      assert.equal(state.step === 'challenge' && state.away, true, 'still away after a colour\'s frame');
      state = transitionFace(state, { type: 'close-face', away: false });
      assert.equal(state.step === 'challenge' && state.away, false);
      for (const image of ['blue', 'green']) state = transitionFace(state, { type: 'lit', image });
      assert.equal(state.step, 'uploading');
    });

    it('with no camera, no file is offered where the host wants a live face', () => {
      const state = run({ type: 'start' }, { type: 'camera-failed', reason: 'no-camera', filesAllowed: false });
      assert.deepEqual(state, { step: 'failure', reason: 'no-camera', canRetry: true, canUpload: false });
    });
  });

  it('continue on a phone: from the start or a camera failure to the link and back, or done there; on the phone, an ended link stops the challenge', () => {
    const failed = run({ type: 'start' }, { type: 'camera-failed', reason: 'no-camera', filesAllowed: false });
    for (const from of [initialFaceState, failed]) assert.equal(transitionFace(from, { type: 'handoff' }).step, 'handoff');
    assert.equal(transitionFace(preview(), { type: 'handoff' }).step, 'preview');
    const linked = run({ type: 'handoff' });
    assert.equal(transitionFace(linked, { type: 'handoff-ended' }).step, 'priming');
    assert.equal(transitionFace(linked, { type: 'done' }).step, 'success');
    const challenge = run({ type: 'start' }, { type: 'granted' }, { type: 'live' });
    assert.deepEqual(transitionFace(challenge, { type: 'blocked', reason: 'handoff_ended' }), { step: 'failure', reason: 'handoff_ended', canRetry: false, canUpload: false });
  });
});
