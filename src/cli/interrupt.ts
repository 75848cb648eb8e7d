import type { Io } from "./io.js";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
type Caught = (typeof SIGNALS)[number];

/** Set to a phase of `org up` (optionally `phase:SIGTERM`): up signals itself as that phase begins. For tests. */
export const INTERRUPT_AT_ENV = "ORG_TEST_INTERRUPT_AT";

export interface Interrupts {
  /** The first signal caught, if any. */
  readonly signal: Caught | undefined;
  /** A phase begins: the test hook's signal is sent, and handled, before it returns. */
  enter(phase: string): Promise<void>;
  /** The exit status of a command ended by the signal: 128 + its number. */
  exitCode(): number;
  dispose(): void;
}

/**
 * Catches SIGINT, SIGTERM and SIGHUP for a command that must end consistently (`org up`): the first is noted and
 * the command finishes or rolls back; a third ends the process at once.
 */
export function catchInterrupts(command: string, io: Io, env: NodeJS.ProcessEnv = process.env): Interrupts {
  let caught: Caught | undefined;
  let count = 0;
  let heard: (() => void) | undefined;
  const onSignal = (signal: Caught) => {
    count += 1;
    caught ??= signal;
    heard?.();
    if (count === 2) {
      io.err(`${command}: still finishing after ${caught} — interrupt once more to quit at once, leaving what runs`);
    }
    if (count >= 3) process.exit(exitCodeOf(caught));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  const [hookPhase, hookSignal] = (env[INTERRUPT_AT_ENV] ?? "").split(":");
  return {
    get signal() {
      return caught;
    },
    enter: async (phase) => {
      if (phase !== hookPhase || caught) return;
      // A signal's watcher keeps no event loop alive: a timer does, until the handler ran.
      const keep = setInterval(() => undefined, 1000);
      const delivered = new Promise<void>((resolve) => (heard = resolve));
      process.kill(process.pid, hookSignal === "SIGTERM" ? "SIGTERM" : "SIGINT");
      await delivered;
      clearInterval(keep);
    },
    exitCode: () => exitCodeOf(caught ?? "SIGINT"),
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}

function exitCodeOf(signal: Caught): number {
  return 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[signal];
}
