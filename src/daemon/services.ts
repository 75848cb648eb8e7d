import type { ServiceTick } from "../domain/views/service-ticks.js";
import { cleanText } from "../domain/safe-text.js";

export type { ServiceTick };

/** One row of the daemon's table of services: started in table order, stopped in reverse. */
export interface Service {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A loop's last tick; absent for a service that ticks on its own events. */
  lastTick?(): ServiceTick;
}

/**
 * Start each service in order, run until `signal` aborts, then stop every service whose start was tried, in
 * reverse start order: one that fails to stop is reported and the rest are stopped all the same.
 */
export async function runServices(
  services: readonly Service[],
  signal: AbortSignal,
  report: (line: string) => void = writeStderr,
): Promise<void> {
  const started: Service[] = [];
  try {
    for (const service of services) {
      if (signal.aborted) break;
      // Counted before its start resolves: a start that fails halfway still has what it opened closed.
      started.push(service);
      await service.start();
    }
    await waitForAbort(signal);
  } finally {
    for (const service of started.reverse()) {
      await service.stop().catch((error: Error) => report(`${service.name}: stop failed: ${error.message}`));
    }
  }
}

/** Each service's last tick, for daemon.json and `org status --json`. */
export function listServiceTicks(services: readonly Service[]): ServiceTick[] {
  return services.map((service) => service.lastTick?.() ?? { name: service.name, lastTickAt: null, lagMs: null });
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

// What the daemon says names agents' descriptions and paths: the daemon pane is a person's terminal too.
function writeStderr(line: string): void {
  process.stderr.write(`[org] ${cleanText(line)}\n`);
}
