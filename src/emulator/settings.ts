/** The emulated application's settings, as the service's dashboard would hold them. */
import type { OtpChannel } from '../core/protocol.js';
import { DEFAULT_MEDIA_LIMITS, type MediaLimits } from './media.js';
import { resolveQuirks, type Quirk, type QuirksInput } from './quirks.js';
import { TEMPLATES, resolveTemplates, type Template, type TemplateInput } from './templates.js';

export type CostedOperation = 'sms' | 'whatsapp' | 'email' | 'face' | 'voice';

export interface EmulatorSettings {
  /** Keys accepted in `X-Authorization`. */
  apiKeys: string[];
  /** The channel used when a send-otp request omits `method`; null makes `method` required. */
  defaultChannel: OtpChannel | null;
  /** Whether `fallback_email` is honoured when the primary channel cannot deliver. */
  fallbackChannel: 'email' | null;
  otpLength: number;
  otpTtlSeconds: number;
  /** Wrong codes a challenge takes before it locks. */
  maxAttempts: number;
  costs: Record<CostedOperation, number>;
  startingBalance: number;
  /** Which of the service's observed (undocumented) behaviours to reproduce (demo/pages/emulator.md, live quirks). */
  quirks: readonly Quirk[];
  /** The account's message templates; `template_id` picks one by id. */
  templates: readonly Template[];
  /** Phone numbers whose primary channel fails to deliver, to exercise the fallback. */
  undeliverable: string[];
  maxBodyBytes: number;
  media: MediaLimits;
  /**
   * Compare faces with the face recognition model when it is installed (the default); false
   * compares pictures only, which starts at once but matches only the same picture or camera feed.
   */
  faceModel: boolean;
}

export const DEVELOPMENT_KEY = 'dev-key-verify-widgets';

export const DEFAULT_SETTINGS: EmulatorSettings = {
  apiKeys: [DEVELOPMENT_KEY],
  defaultChannel: 'sms',
  fallbackChannel: 'email',
  otpLength: 6,
  otpTtlSeconds: 300,
  maxAttempts: 5,
  costs: { sms: 0.25, whatsapp: 0.15, email: 0, face: 0.5, voice: 0.5 },
  startingBalance: 100,
  quirks: [],
  templates: TEMPLATES,
  undeliverable: [],
  maxBodyBytes: 12 * 1024 * 1024,
  media: DEFAULT_MEDIA_LIMITS,
  faceModel: true,
};

/** Settings as a caller gives them: any subset, costs and limits included. */
export type SettingsInput = Omit<Partial<EmulatorSettings>, 'costs' | 'media' | 'quirks' | 'templates'> & {
  /** The account's catalogue; ids may be strings of digits, as a settings file may hold them. */
  templates?: readonly TemplateInput[];
  /** `true` for every quirk, "live" for the latest observed mix, or a list of names. */
  quirks?: QuirksInput;
  costs?: Partial<EmulatorSettings['costs']>;
  media?: Partial<MediaLimits>;
};

export function resolveSettings(overrides: SettingsInput = {}): EmulatorSettings {
  const settings = { ...DEFAULT_SETTINGS, ...overrides } as EmulatorSettings;
  settings.costs = { ...DEFAULT_SETTINGS.costs, ...overrides.costs };
  settings.media = { ...DEFAULT_MEDIA_LIMITS, ...overrides.media };
  settings.quirks = resolveQuirks(overrides.quirks);
  settings.templates = resolveTemplates(overrides.templates ?? TEMPLATES);
  if (!Number.isInteger(settings.otpLength) || settings.otpLength < 4 || settings.otpLength > 8) {
    throw new RangeError('otpLength must be an integer from 4 to 8');
  }
  if (settings.apiKeys.length === 0) throw new RangeError('at least one API key is needed');
  return settings;
}
