/**
 * The service's Prometheus metrics (prom-client): sends and checks by outcome and channel, limits
 * hit, upstream latency and faults, and credits left, read from the handler's log entries and from
 * a timed fetch to the service. No label ever holds a secret, a code, an identifier or a user.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LogEntry } from '../server/index.js';
import { isRoute } from '../core/protocol.js';
import { READ_WHOLE, type ReadWhole } from '../core/http.js';

/** Answers that mean a limit refused the request, whoever set it. */
const LIMIT_CODES = new Set(['rate_limited', 'too_many_attempts', 'try_another_channel', 'challenge_required']);
const OUTCOME_ROUTES: Record<string, string> = {
  'send-otp': 'verify_otp_sends_total',
  'verify-otp': 'verify_otp_checks_total',
  'verify-by-face': 'verify_biometric_checks_total',
  'verify-by-voice': 'verify_biometric_checks_total',
  'enroll-face': 'verify_enrolments_total',
  'enroll-voice': 'verify_enrolments_total',
};

export function createMetrics(readBalance: () => Promise<number>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers: [registry] });
  const requests = counter('verify_requests_total', 'Requests to the widget routes, by route, status and error code.', ['route', 'status', 'code']);
  const outcomes: Record<string, Counter> = {
    verify_otp_sends_total: counter('verify_otp_sends_total', 'Codes asked for, by channel and outcome (sent, or the error code).', ['channel', 'outcome']),
    verify_otp_checks_total: counter('verify_otp_checks_total', 'Codes checked, by channel (email or phone) and outcome (verified, or the error code).', ['channel', 'outcome']),
    verify_biometric_checks_total: counter('verify_biometric_checks_total', 'Face and voice comparisons, by kind and outcome (verified, or the error code).', ['kind', 'outcome']),
    verify_enrolments_total: counter('verify_enrolments_total', 'Face and voice registrations, by kind and outcome (enrolled, or the error code).', ['kind', 'outcome']),
  };
  const limits = counter('verify_limits_hit_total', 'Requests refused or slowed by a limit, by route and code.', ['route', 'code']);
  const faults = counter('verify_upstream_faults_total', 'Calls to the service that failed, by fault.', ['fault']);
  const upstream = new Histogram({
    name: 'verify_upstream_duration_seconds',
    help: 'Time the service took to answer, by operation.',
    labelNames: ['operation'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let credits: { value: number; at: number } | undefined;
  new Gauge({
    name: 'verify_service_credits',
    help: 'Credits left on the service account, read at most once a minute (absent while unknown).',
    registers: [registry],
    async collect() {
      if (!credits || Date.now() - credits.at > 60_000) {
        credits = await readBalance().then(
          (value) => ({ value, at: Date.now() }),
          () => credits,
        );
      }
      if (credits) this.set(credits.value);
    },
  });

  return {
    registry,
    /** One handler log entry. */
    record(logged: LogEntry): void {
      // A path nobody serves is one label, whatever was asked: a caller cannot grow the metrics.
      const entry = isRoute(logged.route) ? logged : { ...logged, route: 'other' };
      const code = entry.code ?? '';
      requests.inc({ route: entry.route, status: String(entry.status), code });
      const outcome = entry.status < 400 ? (entry.route.startsWith('enroll') ? 'enrolled' : entry.route === 'send-otp' ? 'sent' : 'verified') : code || String(entry.status);
      const family = OUTCOME_ROUTES[entry.route];
      if (family) {
        const kind = entry.route.endsWith('face') ? 'face' : 'voice';
        outcomes[family]!.inc(family.startsWith('verify_otp') ? { channel: entry.channel ?? 'unknown', outcome } : { kind, outcome });
      }
      if (LIMIT_CODES.has(code)) limits.inc({ route: entry.route, code });
      if (entry.fault) faults.inc({ fault: entry.fault });
    },
    /** A fetch to the service that times each call and counts those that never answered. */
    timed(send: typeof fetch): typeof fetch {
      const around =
        <I extends RequestInfo | URL, A extends unknown[], T>(call: (input: I, ...rest: A) => Promise<T>) =>
        async (input: I, ...rest: A): Promise<T> => {
          const operation = new URL(input instanceof Request ? input.url : String(input)).pathname.split('/').filter(Boolean).at(-1) ?? '';
          const stop = upstream.startTimer({ operation });
          try {
            return await call(input, ...rest);
          } finally {
            stop();
          }
        };
      // The Node fetch's whole answers, which the service client prefers, timed alike.
      const whole = (send as { [READ_WHOLE]?: ReadWhole })[READ_WHOLE];
      return Object.assign(around(send), whole ? { [READ_WHOLE]: around(whole) } : {});
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
