// The person's side of `org up`: its phases timed for ORG_TRACE_TIMINGS, and the grid attached to their terminal.
import type { UpPhase } from "../../domain/lifecycle/up-org.js";
import { runInteractive } from "../../adapters/process.js";
import { recordPhase, startPhase } from "../../adapters/trace.js";

/** Times each phase from its start to the next one's, and the whole run; free unless tracing. */
export function timeUpPhases(): { enter(phase: UpPhase): void; end(): void } {
  // Before up runs: node's own start and the bundle's load, from the process's time origin.
  recordPhase("up", "load", performance.now());
  let endPhase = (): void => {};
  const total = startPhase("up", "total");
  return {
    enter: (phase) => {
      endPhase();
      endPhase = startPhase("up", phase);
    },
    end: () => {
      endPhase();
      total();
    },
  };
}

/** tmux's client in this terminal until it detaches; its exit status. */
export function attachGrid(argv: string[]): Promise<number> {
  return runInteractive(argv);
}
