import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FlowController } from '../../../src/internal/flow-controller.js';

type State = { step: 'idle' } | { step: 'busy'; job: string } | { step: 'done'; job: string };
type Event = { type: 'start'; job: string } | { type: 'progress' } | { type: 'finish' } | { type: 'ignored' };

function transition(state: State, event: Event): State {
  if (event.type === 'start' && state.step === 'idle') return { step: 'busy', job: event.job };
  if (event.type === 'progress' && state.step === 'busy') return { ...state };
  if (event.type === 'finish' && state.step === 'busy') return { step: 'done', job: state.job };
  return state;
}

function flow(moves: ConstructorParameters<typeof FlowController<State, Event>>[1] = transition) {
  const log: string[] = [];
  let updates = 0;
  const host = { addController: () => {}, removeController: () => {}, requestUpdate: () => void updates++, updateComplete: Promise.resolve(true) };
  const controller = new FlowController<State, Event>(host, moves, { step: 'idle' }, {
    enter: { busy: (state) => log.push(`enter busy ${state.job}`), done: (state, before) => log.push(`enter done from ${before.step}`) },
    leave: { busy: (state, before) => log.push(`leave busy ${before.job} for ${state.step}`) },
    change: (state, before) => log.push(`change ${before.step}>${state.step}`),
  });
  return { controller, log, updates: () => updates };
}

describe('FlowController', () => {
  it('counts how often each step was entered, not changes within one, and keeps no state', () => {
    const { controller } = flow();
    controller.send({ type: 'start', job: 'a' });
    controller.send({ type: 'progress' });
    controller.send({ type: 'ignored' });
    controller.send({ type: 'finish' });
    assert.deepEqual([...controller.entered], [['busy', 1], ['done', 1]]);
  });

  it('runs leave, then enter, then change, when the step changes, and asks the host to update', () => {
    const { controller, log, updates } = flow();
    controller.send({ type: 'start', job: 'a' });
    controller.send({ type: 'finish' });
    assert.deepEqual(log, ['enter busy a', 'change idle>busy', 'leave busy a for done', 'enter done from busy', 'change busy>done']);
    assert.equal(controller.step, 'done');
    assert.equal(updates(), 2);
  });

  it('runs only change on a change within a step, and nothing for an event the step does not take', () => {
    const { controller, log, updates } = flow();
    controller.send({ type: 'ignored' });
    assert.deepEqual([log, updates()], [[], 0]);
    controller.send({ type: 'start', job: 'b' });
    log.length = 0;
    controller.send({ type: 'progress' });
    assert.deepEqual(log, ['change busy>busy']);
  });

  it('holds what is sent before its transition has come, then applies it in order; a fetch that fails drops it, and the next send fetches again', async () => {
    let arrived: typeof transition | undefined;
    let fetches = 0;
    let online = false;
    const { controller, log } = flow({
      current: () => arrived,
      load: async () => {
        fetches++;
        if (online) arrived = transition;
      },
    });
    controller.send({ type: 'start', job: 'a' });
    controller.send({ type: 'finish' });
    assert.equal(controller.step, 'idle', 'nothing moves before the code has come');
    await new Promise((next) => setTimeout(next));
    assert.deepEqual([controller.step, fetches, log], ['idle', 1, []], 'offline: dropped, not applied later by surprise');

    online = true;
    controller.send({ type: 'start', job: 'b' });
    controller.send({ type: 'finish' });
    await new Promise((next) => setTimeout(next));
    assert.deepEqual([controller.step, fetches], ['done', 2]);
    assert.deepEqual(log, ['enter busy b', 'change idle>busy', 'leave busy b for done', 'enter done from busy', 'change busy>done']);
    controller.send({ type: 'ignored' });
    assert.equal(fetches, 2, 'once come, it is not fetched again');
  });
});
