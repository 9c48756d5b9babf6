/**
 * Runs a widget's pure transition function and the effects its steps declare: what to start on
 * entering a step, what to stop on leaving one, and what to do on any change within the flow. The
 * element renders `flow.state`; it never decides effects in an update.
 */
import type { ReactiveControllerHost } from 'lit';

type StateOf<State extends { step: string }, Step extends State['step']> = Extract<State, { step: Step }>;

export interface FlowEffects<State extends { step: string }> {
  /** On entering a step from another one. */
  enter?: { [Step in State['step']]?: (state: StateOf<State, Step>, before: State) => void };
  /** On leaving a step for another one. */
  leave?: { [Step in State['step']]?: (state: State, before: StateOf<State, Step>) => void };
  /** On every change, within a step too, after `leave` and `enter`. */
  change?: (state: State, before: State) => void;
}

type Transition<State, Event> = (state: State, event: Event) => State;

/**
 * A transition whose code comes later (with the steps after the first, fetched on demand): the
 * transition once it has come, and how to fetch it.
 */
export interface LaterTransition<State, Event> {
  current(): Transition<State, Event> | undefined;
  load(): Promise<unknown>;
}

export class FlowController<State extends { step: string }, Event> {
  #state: State;
  /** Events sent before the transition's code came, applied in order once it has; dropped if it cannot come. */
  #waiting?: Event[];
  /** How often the flow entered each step: what the outcome events count (never the states, which hold samples). */
  readonly entered = new Map<State['step'], number>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly transition: Transition<State, Event> | LaterTransition<State, Event>,
    initial: State,
    private readonly effects: FlowEffects<State>,
  ) {
    this.#state = initial;
  }

  get state(): State {
    return this.#state;
  }

  get step(): State['step'] {
    return this.#state.step;
  }

  /** Moves the flow; an event the step does not take changes nothing and runs nothing. */
  send(event: Event): void {
    if (this.#waiting) return void this.#waiting.push(event);
    const transition = typeof this.transition === 'function' ? this.transition : this.transition.current();
    if (!transition) return this.#wait(this.transition as LaterTransition<State, Event>, event);
    const before = this.#state;
    const state = transition(before, event);
    if (state === before) return;
    this.#state = state;
    this.host.requestUpdate();
    if (state.step !== before.step) {
      this.entered.set(state.step, (this.entered.get(state.step) ?? 0) + 1);
      const leave = this.effects.leave?.[before.step as State['step']] as ((state: State, before: State) => void) | undefined;
      const enter = this.effects.enter?.[state.step as State['step']] as ((state: State, before: State) => void) | undefined;
      leave?.(state, before);
      enter?.(state, before);
    }
    this.effects.change?.(state, before);
  }

  /** Holds `event`, and those after it, until the transition has come; its loader tells the person if it cannot. */
  #wait(later: LaterTransition<State, Event>, event: Event): void {
    this.#waiting = [event];
    const flush = () => {
      const waiting = this.#waiting ?? [];
      this.#waiting = undefined;
      if (later.current()) for (const next of waiting) this.send(next);
    };
    later.load().then(flush, flush);
  }
}
