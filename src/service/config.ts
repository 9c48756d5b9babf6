/**
 * The stand-alone service's configuration (demo/pages/any-backend.md): environment variables, and a JSON file
 * named by `VERIFY_CONFIG` that may hold the same keys (the environment wins). Every field is
 * checked at start, and each error names its field. The docs' configuration reference is generated
 * from FIELDS, so the two cannot drift.
 */
import { OTP_CHANNELS, type OtpChannel } from '../core/protocol.js';

type Kind = 'url' | 'secret' | 'list' | 'integer' | 'boolean' | 'path' | 'json' | 'string';

export interface Field {
  name: string;
  kind: Kind;
  required?: boolean;
  default?: string;
  doc: string;
}

export const FIELDS = [
  { name: 'VERIFY_SERVICE_BASE_URL', kind: 'url', required: true, doc: "The authentication service's base URL, ending in `/api/v2`." },
  { name: 'VERIFY_SERVICE_API_KEY', kind: 'secret', required: true, doc: "The service's API key. It never leaves this process." },
  { name: 'VERIFY_RECEIPT_SECRET', kind: 'secret', required: true, doc: 'Signs receipts (HS256), at least 32 bytes. Share it with a site that checks receipts itself.' },
  { name: 'VERIFY_TOKEN_SECRET', kind: 'secret', required: true, doc: "Checks the session tokens the site mints (HS256), at least 32 bytes. Shared with the site's back end." },
  { name: 'VERIFY_SERVER_SECRET', kind: 'secret', required: true, doc: 'Authenticates the site to `receipts/redeem` and signs the reference callbacks, at least 32 bytes.' },
  { name: 'VERIFY_ALLOWED_COUNTRIES', kind: 'list', doc: 'Countries phones may belong to (ISO 3166 alpha-2, comma-separated). Required when SMS or WhatsApp is allowed.' },
  { name: 'VERIFY_ALLOWED_CHANNELS', kind: 'list', default: 'sms,whatsapp,email', doc: 'Channels offered: some of `sms`, `whatsapp`, `email`.' },
  { name: 'VERIFY_REDIS_URL', kind: 'url', doc: 'Redis (`redis://` or `rediss://`) shared by every instance; append-only persistence on. With none of this, `VERIFY_REDIS_CLUSTER` and `VERIFY_UPSTASH_URL`, state is in memory and only one instance may run.' },
  { name: 'VERIFY_REDIS_CLUSTER', kind: 'list', doc: 'A Redis Cluster shared by every instance, instead of one Redis: some of its nodes as `host:port`, comma-separated (the rest are learnt from them). A claim waits for one replica of its master where masters have replicas.' },
  { name: 'VERIFY_UPSTASH_URL', kind: 'url', doc: "Upstash Redis over HTTPS (its REST URL), shared by every instance, instead of a Redis: each request's store work is one HTTPS request. Needs `VERIFY_UPSTASH_TOKEN`." },
  { name: 'VERIFY_UPSTASH_TOKEN', kind: 'string', doc: "Upstash's REST token, for `VERIFY_UPSTASH_URL`." },
  { name: 'VERIFY_REFERENCES_URL', kind: 'url', doc: "The site's endpoint for face and voice references (`GET`/`PUT {url}/{userId}/{face|voice}`, signed). Unset, face and voice are off." },
  { name: 'VERIFY_WEBHOOK_URL', kind: 'url', doc: "The site's endpoint told of each verification, abuse alert and low balance: a signed POST of `{id, type, created, data}` (the Any back end page's webhooks), tried again with backoff while the site does not answer 2xx. Unset, nothing is sent." },
  { name: 'VERIFY_WEBHOOK_GIVE_UP_SECONDS', kind: 'integer', default: '86400', doc: 'How long an event is tried before it is dropped with a log line.' },
  { name: 'VERIFY_BASE_PATH', kind: 'path', default: '/api/verify', doc: 'Where the widget routes and `receipts/redeem` are served.' },
  { name: 'PORT', kind: 'integer', default: '8080', doc: 'The port to listen on.' },
  { name: 'VERIFY_LISTEN_HOST', kind: 'string', default: '0.0.0.0', doc: 'The address to listen on.' },
  { name: 'VERIFY_TRUST_PROXY', kind: 'integer', default: '0', doc: "Proxies of the site's own in front of the service (nginx is one), whose X-Forwarded-For entries are true. Per-address limits need it behind a proxy." },
  { name: 'VERIFY_ALLOWED_ORIGINS', kind: 'list', doc: 'Origins whose pages may call (comma-separated). Unset, the host the browser addressed.' },
  { name: 'VERIFY_TEMPLATE_ID', kind: 'json', doc: 'The service template per widget language (`{"en":1,"ar":2}`), or one number for all.' },
  { name: 'VERIFY_FALLBACK_CHANNEL', kind: 'string', doc: 'The channel offered when the first fails (`sms`, `whatsapp`, `email` or `none`); email when allowed, by default.' },
  { name: 'VERIFY_CODE_LENGTH', kind: 'integer', doc: 'Digits in a code, as the service is set to send (4 to 8). Unset, learnt from the codes it accepts.' },
  { name: 'VERIFY_RECEIPT_SECONDS', kind: 'integer', default: '120', doc: 'How long a receipt may be redeemed.' },
  { name: 'VERIFY_ENROLL_PROOF_SECONDS', kind: 'integer', default: '300', doc: 'How long a verified code counts as proof for registering a face or voice.' },
  { name: 'VERIFY_ALLOW_REENROLLMENT', kind: 'boolean', default: 'false', doc: 'Let a user who has a reference replace it.' },
  { name: 'VERIFY_FACE_LIVENESS', kind: 'boolean', default: 'true', doc: 'Check faces live (the Liveness page): a face is verified or registered only from the frames of a live challenge, checked by face models in worker threads before the service is paid. Needs `@vladmandic/face-api`, `@tensorflow/tfjs`, `@tensorflow/tfjs-backend-wasm` and `onnxruntime-node` installed beside (`ONNXRUNTIME_NODE_INSTALL=skip npm install …`: its install script fetches GPU files from outside the registry); the service refuses to start with faces on and them missing. `false` accepts any picture: a photo of the person passes as the person.' },
  { name: 'VERIFY_FACE_LIGHT', kind: 'boolean', default: 'true', doc: "With faces checked live, a light challenge too (the Liveness page): colours chosen for each challenge fill the screen in front of the face, and the face must reflect them, in order, before the service is paid. A recording of the person cannot carry colours chosen after it was made. `false` turns it off: a recording whose frames a script chooses to answer the movements then passes." },
  { name: 'VERIFY_VOICE_LIVENESS', kind: 'boolean', default: 'true', doc: "Hear voices said now (the Liveness page): a voice is verified or registered only from a recording of the digits the service chose for it (`voice-challenge`), heard by a recogniser in a worker thread before the service is paid. Needs `soundswallower` installed beside (`npm install soundswallower`); the service refuses to start serving voices with it on and the recogniser missing. `false` accepts any recording: a recording of the person's voice passes as the person." },
  { name: 'VERIFY_LIMITS', kind: 'json', doc: "Overrides of the handler's limits, as a JSON object (the host handler page's limits table)." },
  { name: 'VERIFY_UPSTREAM_TIMEOUT_MS', kind: 'integer', default: '10000', doc: 'How long a call to the service may take.' },
  { name: 'VERIFY_STORE_TIMEOUT_MS', kind: 'integer', default: '500', doc: "How long a call to the store (Redis, the cluster or Upstash) may take before the request is answered 503." },
  { name: 'VERIFY_LOW_BALANCE_THRESHOLD', kind: 'integer', doc: 'Paid channels are hidden below this many credits.' },
  { name: 'VERIFY_CDN_PATH', kind: 'path', doc: 'Also serve the widgets\' CDN files under this path (such as `/verify-widgets`), so a page needs nothing else.' },
  { name: 'VERIFY_SHUTDOWN_SECONDS', kind: 'integer', default: '10', doc: 'On SIGTERM, how long requests in flight may take to finish; new ones are refused at once.' },
] as const satisfies readonly Field[];

type Name = (typeof FIELDS)[number]['name'];
type Value<K extends Kind> = K extends 'list' ? string[] : K extends 'integer' ? number : K extends 'boolean' ? boolean : K extends 'json' ? unknown : string;
export type ServiceConfig = { [F in (typeof FIELDS)[number] as F['name']]: F extends { required: true } | { default: string } ? Value<F['kind']> : Value<F['kind']> | undefined };

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`The configuration is refused:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

const encoder = new TextEncoder();

/** One field's value from its text, or a reason it is refused. */
function parse(field: Field, raw: unknown): unknown {
  // The JSON file may hold native values: a list as an array, a number as a number.
  if (field.kind === 'json') return typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (field.kind === 'list' && Array.isArray(raw)) raw = raw.join(',');
  if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
  if (typeof raw !== 'string') throw new Error('must be a string');
  const text = raw.trim();
  switch (field.kind) {
    case 'url': {
      const url = new URL(text);
      if (!/^(https?|rediss?):$/.test(url.protocol)) throw new Error('must be an http(s) or redis URL');
      return text;
    }
    case 'secret':
      if (encoder.encode(text).length < (field.name === 'VERIFY_SERVICE_API_KEY' ? 1 : 32)) throw new Error('must be at least 32 bytes (for example 32 random bytes in hex)');
      return text;
    case 'list':
      return text.split(',').map((item) => item.trim()).filter(Boolean);
    case 'integer':
      if (!/^\d+$/.test(text)) throw new Error('must be a whole number');
      return Number(text);
    case 'boolean':
      if (!/^(true|false|1|0)$/.test(text)) throw new Error('must be true or false');
      return text === 'true' || text === '1';
    case 'path':
      if (!/^\/[\w\-./]*$/.test(text)) throw new Error('must be a path starting with /');
      return text.replace(/\/+$/, '') || '/';
    default:
      return text;
  }
}

/** The configuration from the environment over the optional file; throws a ConfigError naming every bad field. */
export function loadConfig(env: Record<string, string | undefined>, readFile: (path: string) => string): ServiceConfig {
  const problems: string[] = [];
  let file: Record<string, unknown> = {};
  if (env.VERIFY_CONFIG) {
    try {
      const parsed: unknown = JSON.parse(readFile(env.VERIFY_CONFIG));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it is not a JSON object');
      file = parsed as Record<string, unknown>;
      const known = new Set<string>(FIELDS.map((f) => f.name));
      for (const key of Object.keys(file)) if (!known.has(key)) problems.push(`${key} (in ${env.VERIFY_CONFIG}): not a setting`);
    } catch (error) {
      problems.push(`VERIFY_CONFIG: ${env.VERIFY_CONFIG} could not be read: ${(error as Error).message}`);
    }
  }
  const config: Record<string, unknown> = {};
  for (const field of FIELDS as readonly Field[]) {
    const given = env[field.name] !== undefined && env[field.name] !== '' ? env[field.name] : file[field.name];
    const raw = given ?? field.default;
    if (raw === undefined) {
      if (field.required) problems.push(`${field.name}: required`);
      continue;
    }
    try {
      config[field.name] = parse(field, raw);
    } catch (error) {
      problems.push(`${field.name}: ${(error as Error).message}`);
    }
  }
  const channels = (config.VERIFY_ALLOWED_CHANNELS as string[] | undefined) ?? [];
  const unknown = channels.find((c) => !OTP_CHANNELS.includes(c as OtpChannel));
  if (unknown !== undefined) problems.push(`VERIFY_ALLOWED_CHANNELS: ${JSON.stringify(unknown)} is not one of ${OTP_CHANNELS.join(', ')}`);
  const stores = ['VERIFY_REDIS_URL', 'VERIFY_REDIS_CLUSTER', 'VERIFY_UPSTASH_URL'].filter((name) => config[name] !== undefined);
  if (stores.length > 1) problems.push(`${stores.join(', ')}: set one store, not ${stores.length}`);
  for (const node of (config.VERIFY_REDIS_CLUSTER as string[] | undefined) ?? []) {
    if (!/^[^\s:/]+:\d{1,5}$/.test(node)) problems.push(`VERIFY_REDIS_CLUSTER: ${JSON.stringify(node)} is not host:port`);
  }
  // The URL kind takes redis:// too; these are called over HTTP.
  for (const [name, whose] of [['VERIFY_WEBHOOK_URL', 'the site'], ['VERIFY_REFERENCES_URL', 'the site'], ['VERIFY_UPSTASH_URL', 'the REST API']] as const) {
    if (config[name] !== undefined && !/^https?:/.test(config[name] as string)) problems.push(`${name}: must be an http(s) URL of ${whose}`);
  }
  if (config.VERIFY_UPSTASH_URL !== undefined && !config.VERIFY_UPSTASH_TOKEN) problems.push('VERIFY_UPSTASH_TOKEN: required with VERIFY_UPSTASH_URL');
  const fallback = config.VERIFY_FALLBACK_CHANNEL;
  if (fallback !== undefined && fallback !== 'none' && !OTP_CHANNELS.includes(fallback as OtpChannel)) problems.push('VERIFY_FALLBACK_CHANNEL: must be sms, whatsapp, email or none');
  if (problems.length) throw new ConfigError(problems);
  return config as ServiceConfig;
}

/** The handler option each field becomes, for naming the field when the handler refuses an option. */
export const OPTION_FIELDS: Record<string, Name> = {
  baseUrl: 'VERIFY_SERVICE_BASE_URL',
  allowedCountries: 'VERIFY_ALLOWED_COUNTRIES',
  allowedChannels: 'VERIFY_ALLOWED_CHANNELS',
  codeLength: 'VERIFY_CODE_LENGTH',
  receiptSecret: 'VERIFY_RECEIPT_SECRET',
  templateId: 'VERIFY_TEMPLATE_ID',
  limits: 'VERIFY_LIMITS',
};
