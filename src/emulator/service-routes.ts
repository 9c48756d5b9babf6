/** The five operations of the service's interface, each a function of state and body. */
import { json } from '../core/http.js';
import { OTP_CHANNELS, type OtpChannel } from '../core/protocol.js';
import { checkAudio, decodeBase64Field, inspectImage } from './media.js';
import { compareFaces, decodeImage } from './face-compare.js';
import { VOICE_MAX_DISTANCE, voiceDescriptor, voiceDistance } from './voice-compare.js';
import { defaultTemplate, fallbackTemplate, findTemplate, render, type Template } from './templates.js';
import type { EmulatorState } from './state.js';
import type { CostedOperation } from './settings.js';
import { checkEmail, checkPhone, invalid, optionalString, requiredString } from './validation.js';

type Body = Record<string, unknown>;
export interface RouteResult {
  response: Response;
  /** A line for the request log: outcome details that are never secret. */
  note?: string;
}

function insufficientCredits(state: EmulatorState, operation: CostedOperation): Response {
  const cost = state.settings.costs[operation];
  return json(
    { success: false, message: 'Insufficient credits', errors: [{ message: `This operation costs ${cost} credits; the balance is ${state.balance}.` }] },
    402,
  );
}

export function balance(state: EmulatorState): RouteResult {
  const value = state.quirk('string-balance') ? state.balance.toFixed(2) : state.balance;
  return { response: json({ success: true, data: { balance: value }, message: 'Balance retrieved successfully' }) };
}

export function sendOtp(state: EmulatorState, body: Body): RouteResult {
  const { settings } = state;
  const method = (optionalString(body, 'method') ?? settings.defaultChannel) as OtpChannel | null;
  if (!method) invalid('method', 'The method field is required: no default channel is configured.');
  if (!OTP_CHANNELS.includes(method)) invalid('method', `The method field must be one of ${OTP_CHANNELS.join(', ')}.`);

  const to = method === 'email' ? checkEmail(requiredString(body, 'email')) : checkPhone(requiredString(body, 'phone', 16));
  const template = pickTemplate(state, body.template_id);
  const chosen = optionalString(body, 'otp');
  if (chosen !== undefined && !/^\d{4,8}$/.test(chosen)) invalid('otp', 'The otp field must be 4 to 8 digits.');
  const fallbackEmail = optionalString(body, 'fallback_email');
  if (fallbackEmail !== undefined) checkEmail(fallbackEmail, 'fallback_email');

  const undeliverable = method !== 'email' && settings.undeliverable.includes(to);
  if (undeliverable && !(fallbackEmail && settings.fallbackChannel === 'email')) {
    invalid('phone', 'The message could not be delivered to this number.');
  }
  if (!undeliverable && !state.canAfford(method)) return { response: insufficientCredits(state, method) };

  const code = state.otp.issue(to, chosen);
  if (undeliverable) {
    // The code stays valid for the phone too: the person verifies what they first typed.
    const email = fallbackEmail!.toLowerCase();
    state.otp.issue(email, code);
    deliver(state, 'email', email, fallbackTemplate(state.settings.templates, template), code, true);
    return { response: sent(), note: `${method} undeliverable, fallback to email` };
  }
  state.charge(method);
  deliver(state, method, to, template, code, false);
  return { response: sent(), note: `${method} template ${template.id}` };
}

function pickTemplate(state: EmulatorState, value: unknown): Template {
  const { templates } = state.settings;
  if (value === undefined || value === null) return defaultTemplate(templates);
  return findTemplate(templates, value) ?? invalid('template_id', 'The selected template_id is invalid.');
}

function deliver(state: EmulatorState, channel: OtpChannel, to: string, template: Template, code: string, fallback: boolean) {
  const text = render(template, code, state.settings.otpTtlSeconds);
  state.outbox.add({ channel, to, templateId: template.id, language: template.language, text, code, fallback });
}

const sent = () => json({ success: true, data: null, message: 'OTP sent successfully' });

export function verifyOtp(state: EmulatorState, body: Body): RouteResult {
  const otp = requiredString(body, 'otp', 16);
  const phone = optionalString(body, 'phone');
  const email = optionalString(body, 'email');
  if (!phone && !email) invalid('phone', 'The phone field is required when email is not present.');
  const identifier = phone ? checkPhone(phone) : checkEmail(email!);
  const outcome = state.otp.check(identifier, otp);
  if (outcome === 'verified') return { response: json({ status: true, message: 'OTP verified successfully' }), note: outcome };
  // The live service says only this; the documented mode adds why, as an emulator extension.
  const failure = state.quirk('terse-otp-failure') ? {} : { reason: outcome };
  return { response: json({ status: false, message: 'Failed to verify OTP', ...failure }, 422), note: outcome };
}

export async function verifyByFace(state: EmulatorState, body: Body): Promise<RouteResult> {
  const { media } = state.settings;
  const userId = requiredString(body, 'user_id');
  const images = (['registered_face_image', 'query_face_image'] as const).map((field) => {
    const bytes = decodeBase64Field(body[field], field, media.maxImageBytes);
    const info = inspectImage(bytes, field, media);
    try {
      return decodeImage(bytes, info.type);
    } catch {
      return invalid(field, `The ${field} image could not be decoded.`);
    }
  });
  if (!state.canAfford('face')) return { response: insufficientCredits(state, 'face') };
  // Charged before the comparison awaits, so that concurrent requests cannot overdraw; given back
  // if the comparison itself fails, as a fault costs the caller a retry, not credits.
  state.charge('face');
  let compared;
  try {
    compared = state.forced.face === undefined ? await compareFaces(images[0]!, images[1]!, state.settings.faceModel ? await state.faceEmbedder() : null) : undefined;
  } catch (error) {
    state.charge('face', -1);
    throw error;
  }
  const match = state.forced.face ?? compared!.match;
  const note = `${compared?.detail ?? 'forced'} -> ${match ? 'match' : 'no match'}`;
  if (!match && state.quirk('face-422')) {
    const message = compared?.problem === 'no-face' ? 'No face detected in the image' : 'Face verification failed: faces do not match';
    return { response: json({ success: false, message }, 422), note };
  }
  return { response: comparison(state, userId, match), note };
}

export function verifyByVoice(state: EmulatorState, body: Body): RouteResult {
  const { media } = state.settings;
  const userId = requiredString(body, 'user_id');
  const clips = (['registered_audio', 'query_audio'] as const).map((field) =>
    checkAudio(decodeBase64Field(body[field], field, media.maxAudioBytes), field, media),
  );
  if (!state.canAfford('voice')) return { response: insufficientCredits(state, 'voice') };
  state.charge('voice');
  const [a, b] = clips.map((clip) => voiceDescriptor(clip.mono, clip.sampleRate));
  const distance = voiceDistance(a!, b!);
  const match = state.forced.voice ?? distance <= VOICE_MAX_DISTANCE;
  const note = `voice distance ${distance.toFixed(3)}${state.forced.voice === undefined ? '' : ' (forced)'} -> ${match ? 'match' : 'no match'}`;
  return { response: comparison(state, userId, match), note };
}

function comparison(state: EmulatorState, userId: string, match: boolean): Response {
  // The live service has been documented answering `result` as the string "True".
  const result = state.quirk('string-result') ? (match ? 'True' : 'False') : match;
  return json({ success: true, data: { user_id: userId, result } });
}

