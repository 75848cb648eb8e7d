import type { Service, ServiceTick } from "./services.js";

/** A service that ticks: declared by its period and what it does, never a hand-rolled loop. */
export interface LoopSpec {
  name: string;
  /** The sleep between two ticks, and what a tick's lag is measured against. */
  periodMs: number;
  tick(now: Date): Promise<unknown>;
  /** Opens what the ticks need; runs before the first tick. */
  open?(): Promise<void>;
  /** Closes it; runs after the last tick. */
  close?(): Promise<void>;
  /** Events that cut a sleep short: given the wake-up, returns how to stop listening. */
  wake?(wake: () => void): () => void;
  /** A wait of its own in place of the period's sleep (the supervisor waits on the pane host's report of a change). */
  pause?(): Promise<void>;
  /** Where a tick's error goes: the loop never ends on one. */
  fail?(error: Error): void;
  /** Start resolves only once the first tick has run, so the services after this one see its result. */
  firstTickInStart?: boolean;
}

/**
 * The loop `spec` declares as a service: start opens it and sets off the first tick, stop waits for the tick in flight.
 */
export function defineLoop(spec: LoopSpec): Service {
  let stopping = false;
  // A wake-up that arrives mid-tick is remembered, so the next sleep is skipped rather than the event lost.
  let woken = false;
  let cutSleep = () => {};
  let unlisten = () => {};
  let last: { at: number; lagMs: number } | undefined;
  let running: Promise<void> | undefined;

  const wake = () => {
    woken = true;
    cutSleep();
  };
  const tickOnce = async () => {
    const at = Date.now();
    last = { at, lagMs: last ? Math.max(0, at - last.at - spec.periodMs) : 0 };
    await spec.tick(new Date(at)).catch((error: Error) => spec.fail?.(error));
  };
  const sleep = () => {
    if (woken || stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = spec.pause ? undefined : setTimeout(resolve, spec.periodMs);
      spec.pause?.().then(() => resolve(), () => resolve());
      cutSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };
  const repeat = async () => {
    while (!stopping) {
      await sleep();
      woken = false;
      if (!stopping) await tickOnce();
    }
  };

  return {
    name: spec.name,
    async start() {
      await spec.open?.();
      unlisten = spec.wake?.(wake) ?? unlisten;
      const first = tickOnce();
      running = first.then(repeat);
      if (spec.firstTickInStart) await first;
    },
    async stop() {
      stopping = true;
      cutSleep();
      unlisten();
      await running;
      await spec.close?.();
    },
    lastTick(): ServiceTick {
      return { name: spec.name, lastTickAt: last ? new Date(last.at).toISOString() : null, lagMs: last?.lagMs ?? null };
    },
  };
}
