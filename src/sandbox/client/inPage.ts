/**
 * A sandbox target over an engine in this process. Nothing else drives its clock, so after every call and
 * action the jobs due now run and their deliveries finish before the answer comes back: a notification a
 * call causes is in the inbox when the caller looks.
 */
import {runAction, sandboxAction} from '../actions';
import type {SandboxEngine} from '../engine/engine';
import type {SandboxTarget} from './target';

/** Runs the jobs due now and waits for their deliveries. */
export async function runDueAndSettle(engine: SandboxEngine): Promise<void> {
  await engine.runDue();
  await engine.settle();
}

export function inPageTarget(engine: SandboxEngine): SandboxTarget {
  return {
    async call(request) {
      const response = await engine.handle(request);
      await runDueAndSettle(engine);
      return response;
    },
    async act(name, input) {
      const result = await runAction(engine, sandboxAction(name), input);
      await runDueAndSettle(engine);
      return result;
    },
    clock: {now: () => Promise.resolve(engine.clock.now())},
  };
}
