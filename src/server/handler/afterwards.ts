/**
 * Store writes that follow an answer and decide nothing for it (a right code's clean-up): the person
 * does not wait for them where work may outlive the response (the Node entry; elsewhere a
 * `waitUntil` the adapter passes, as Workers and Vercel give one), else the answer waits for them.
 * A session's next request on this instance waits for its writes first, so that it reads them.
 */
export class Afterwards {
  readonly #writing = new Map<string, Promise<void>>();

  constructor(
    private readonly outlivesResponse: boolean,
    private readonly log?: (entry: { route: string; status: number; ms: number; error: string }) => void,
  ) {}

  /**
   * Runs `work` for `session`: after the request is `answered` where the runtime allows and the
   * caller need not `wait`, else before it. A failure is logged, never thrown: the answer stands.
   */
  async run(session: string, work: () => Promise<unknown>, { waitUntil, wait, answered }: { waitUntil: unknown; wait: boolean; answered: Promise<void> }): Promise<void> {
    const later = !wait && (typeof waitUntil === 'function' || this.outlivesResponse);
    const started = performance.now();
    // Not waited for, it starts once the answer is on its way, so that its own CPU does not delay it.
    const done = (later ? answered.then(() => new Promise((resolve) => setTimeout(resolve, 0))).then(work) : work()).then(
      () => undefined,
      (error: unknown) => this.log?.({ route: 'afterwards', status: 0, ms: performance.now() - started, error: (error as Error)?.name ?? 'Error' }),
    );
    if (!later) return done;
    if (typeof waitUntil === 'function') (waitUntil as (work: Promise<unknown>) => void)(done);
    const previous = this.#writing.get(session);
    const last = (previous ? Promise.all([previous, done]) : done).then(() => {
      if (this.#writing.get(session) === last) this.#writing.delete(session);
    });
    this.#writing.set(session, last);
  }

  /** What the session's next request waits for: its writes still in flight here, if any. */
  written(session: string): Promise<void> | undefined {
    return this.#writing.get(session);
  }
}
