/** Injected faults, so tests can see how clients cope with a slow, failing or limiting service. */
export type FaultKind = 'latency' | 'error' | 'hang' | 'rate-limit';

export interface Fault {
  kind: FaultKind;
  /** Operation it applies to (`send-otp`, `balance`...); all operations when absent. */
  route?: string;
  /** For `latency`: milliseconds to wait before answering. */
  ms?: number;
  /** For `error`: the status, 503 by default. */
  status?: number;
  /** For `rate-limit`: the Retry-After seconds, 30 by default. */
  retryAfter?: number;
  /** How many requests it applies to; until cleared when absent. */
  times?: number;
}

const KINDS: readonly FaultKind[] = ['latency', 'error', 'hang', 'rate-limit'];

export function parseFault(value: Record<string, unknown>): Fault {
  const { kind, route, ms, status, retryAfter, times } = value;
  if (!KINDS.includes(kind as FaultKind)) throw new TypeError(`kind must be one of ${KINDS.join(', ')}`);
  const optionalNumber = (v: unknown, name: string, min: number, max: number) => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new TypeError(`${name} must be an integer from ${min} to ${max}`);
    return v;
  };
  if (route !== undefined && typeof route !== 'string') throw new TypeError('route must be a string');
  return {
    kind: kind as FaultKind,
    route,
    ms: optionalNumber(ms, 'ms', 0, 120_000),
    status: optionalNumber(status, 'status', 400, 599),
    retryAfter: optionalNumber(retryAfter, 'retryAfter', 0, 86_400),
    times: optionalNumber(times, 'times', 1, 1_000_000),
  };
}

export class FaultList {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    this.#faults.push({ ...fault });
  }

  clear(): void {
    this.#faults = [];
  }

  list(): readonly Fault[] {
    return this.#faults;
  }

  /** The faults that apply to this request, each use counted against its `times`. */
  take(route: string): Fault[] {
    const applying = this.#faults.filter((f) => !f.route || f.route === route);
    for (const fault of applying) if (fault.times !== undefined) fault.times--;
    this.#faults = this.#faults.filter((f) => f.times === undefined || f.times > 0);
    return applying;
  }
}
