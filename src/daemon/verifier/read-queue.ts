import { join } from "node:path";
import type { ExperimentRequest } from "../../org/experiments/experiment.js";
import { readJson } from "../../adapters/fs/files.js";
import { listDir, removeFile } from "../../adapters/fs/dir.js";

/**
 * state/queue's requests of the org's agents, oldest first. The same commit queued twice (a plain commit seen just
 * before its submit, or one already running) is one request: the other's file goes, its id into `aliases`, and one
 * run answers both. `running` is asked at each file: a run may start while the folder is read.
 */
export async function readQueue(
  queue: string, agents: ReadonlyMap<string, unknown>, running: () => ExperimentRequest[],
  aliases: Map<string, string[]>,
): Promise<ExperimentRequest[]> {
  const requests: ExperimentRequest[] = [];
  for (const name of (await listDir(queue)).filter((file) => file.endsWith(".json")).sort()) {
    const request = await readJson<ExperimentRequest>(join(queue, name)).catch(() => undefined);
    if (!request || !agents.has(request.agent)) continue;
    const twin = [...requests, ...running()].find((other) => other.id !== request.id && other.agent === request.agent
      && other.commit === request.commit && laneOf(other) === laneOf(request));
    if (twin) {
      aliases.set(twin.id, [...new Set([...(aliases.get(twin.id) ?? []), request.id])]);
      await removeFile(join(queue, name));
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
