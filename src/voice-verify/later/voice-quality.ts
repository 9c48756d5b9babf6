/**
 * The voice quality gate, pure: 20 ms frames in (their RMS, peak and clipped samples), a verdict
 * out. Speech is found by energy: a frame is speech when it stands well above the recording's own
 * noise floor (its quietest tenth) and above an absolute floor. Steady noise, however loud, has
 * nothing standing above it, so it is not mistaken for speech; digital silence has nothing at all.
 */
export type VoiceProblem = 'no-speech' | 'too-quiet' | 'clipping' | 'too-short';

export interface FrameStats {
  rms: number;
  peak: number;
  clipped: number;
  /** Microphone samples the frame covers. */
  count: number;
}

export const FRAME_SECONDS = 0.02;

export const VOICE_THRESHOLDS = {
  /** A speech frame stands this far above the noise floor (steady noise on the fixtures: 3.4 dB)... */
  aboveFloorDb: 9,
  /** ...and above this absolute level. */
  speechMinDb: -55,
  /** The speech's level must reach this, or the person is asked to come closer or speak up. */
  quietDb: -40,
  /** Share of clipped microphone samples tolerated. */
  maxClippedShare: 0.005,
  /** Below this a frame is digital silence, not a room: no microphone's own noise is this quiet. */
  silenceDb: -90,
};

export interface VoiceGateOptions {
  /** Least speech, in seconds, for an upload. */
  minSpeechSeconds: number;
}

export interface VoiceAnalysis {
  seconds: number;
  speechSeconds: number;
  /** The level of the speech frames, in dBFS (-Infinity when there are none). */
  levelDb: number;
  clippedShare: number;
  problems: VoiceProblem[];
}

export const dbfs = (rms: number): number => (rms > 0 ? 20 * Math.log10(rms) : -Infinity);

/**
 * The level below which a tenth of the frames lie: the room's noise, between words. The digital
 * silence before a device's first sound is no room's: a microphone that starts late (a Bluetooth
 * headset, a busy machine: WebKit's gave 0.3 s of zeros on CI) would put the floor at nothing, and
 * any steady noise above it would pass for speech.
 */
export function noiseFloorDb(frames: readonly FrameStats[]): number {
  const first = frames.findIndex((f) => dbfs(f.rms) > VOICE_THRESHOLDS.silenceDb);
  const levels = frames.slice(Math.max(0, first)).map((f) => dbfs(f.rms)).sort((a, b) => a - b);
  return levels[Math.floor(levels.length * 0.1)] ?? -Infinity;
}

export function isSpeech(frame: FrameStats, floorDb: number): boolean {
  const level = dbfs(frame.rms);
  return level >= VOICE_THRESHOLDS.speechMinDb && level >= floorDb + VOICE_THRESHOLDS.aboveFloorDb;
}

export function analyseVoice(frames: readonly FrameStats[], { minSpeechSeconds }: VoiceGateOptions): VoiceAnalysis {
  const floor = noiseFloorDb(frames);
  const speech = frames.filter((f) => isSpeech(f, floor));
  const energy = speech.reduce((sum, f) => sum + f.rms * f.rms, 0);
  const levelDb = speech.length ? dbfs(Math.sqrt(energy / speech.length)) : -Infinity;
  const samples = frames.reduce((sum, f) => sum + f.count, 0);
  const clippedShare = samples ? frames.reduce((sum, f) => sum + f.clipped, 0) / samples : 0;
  const speechSeconds = speech.length * FRAME_SECONDS;
  const problems: VoiceProblem[] = [];
  if (!speech.length) problems.push('no-speech');
  else {
    if (levelDb < VOICE_THRESHOLDS.quietDb) problems.push('too-quiet');
    if (speechSeconds < minSpeechSeconds) problems.push('too-short');
  }
  if (clippedShare > VOICE_THRESHOLDS.maxClippedShare) problems.push('clipping');
  return { seconds: frames.length * FRAME_SECONDS, speechSeconds, levelDb, clippedShare, problems };
}

/**
 * What to tell the person while they speak, from the frames so far: clipping in the last half
 * second, a level too low over the last second and a half, or no speech in the last two seconds.
 */
export function liveWarning(frames: readonly FrameStats[]): VoiceProblem | null {
  const last = (seconds: number) => frames.slice(-Math.round(seconds / FRAME_SECONDS));
  if (last(0.5).some((f) => f.clipped > 0)) return 'clipping';
  if (frames.length * FRAME_SECONDS < 1.5) return null;
  const loudest = Math.max(...last(1.5).map((f) => dbfs(f.rms)));
  if (loudest < VOICE_THRESHOLDS.speechMinDb) return 'no-speech';
  if (frames.length * FRAME_SECONDS >= 2) {
    const floor = noiseFloorDb(frames);
    if (!last(2).some((f) => isSpeech(f, floor))) return 'no-speech';
  }
  if (loudest < VOICE_THRESHOLDS.quietDb) return 'too-quiet';
  return null;
}
