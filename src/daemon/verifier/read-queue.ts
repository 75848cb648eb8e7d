import type { ExperimentRequest } from "../../domain/experiments/request.js";
import { listQueue, removeFromQueue } from "../../adapters/store/queue.js";

/**
 * The queued requests of the org's agents, oldest first. The same commit queued twice (a plain commit seen just
 * before its submit, or one already running) is one request: the other's file goes, its id into `aliases`, and one
 * run answers both. `running` is asked at each request: a run may start while the folder is read.
 */
export async function readQueue(
  state: string, agents: ReadonlyMap<string, unknown>, running: () => ExperimentRequest[],
  aliases: Map<string, string[]>,
): Promise<ExperimentRequest[]> {
  const requests: ExperimentRequest[] = [];
  for (const request of await listQueue(state)) {
    if (!agents.has(request.agent)) continue;
    const twin = [...requests, ...running()].find((other) => other.id !== request.id && other.agent === request.agent
      && other.commit === request.commit && laneOf(other) === laneOf(request));
    if (twin) {
      aliases.set(twin.id, [...new Set([...(aliases.get(twin.id) ?? []), request.id])]);
      await removeFromQueue(state, request.id);
      continue;
    }
    requests.push(request);
  }
  return requests;
}

// A stack and an ablation are the org's own experiments: never one of the agent's own requests for the same commit.
function laneOf(request: ExperimentRequest): string {
  return request.kind === "stack" || request.kind === "ablate" ? request.kind : "agent";
}
