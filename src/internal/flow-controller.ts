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

/** How often a flow entered each step, with the state it held the first and the last time: what the outcome events count. */
export type Entered<State extends { step: string }> = Map<State['step'], { count: number; first: State; last: State }>;

export class FlowController<State extends { step: string }, Event> {
  #state: State;
  readonly entered: Entered<State> = new Map();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly transition: (state: State, event: Event) => State,
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
    const before = this.#state;
    const state = this.transition(before, event);
    if (state === before) return;
    this.#state = state;
    this.host.requestUpdate();
    if (state.step !== before.step) {
      const { count = 0, first = state } = this.entered.get(state.step) ?? {};
      this.entered.set(state.step, { count: count + 1, first, last: state });
      const leave = this.effects.leave?.[before.step as State['step']] as ((state: State, before: State) => void) | undefined;
      const enter = this.effects.enter?.[state.step as State['step']] as ((state: State, before: State) => void) | undefined;
      leave?.(state, before);
      enter?.(state, before);
    }
    this.effects.change?.(state, before);
  }
}
