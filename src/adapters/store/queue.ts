import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { ExperimentRequest } from "../../org/experiments/request.js";
import { readJson } from "../fs/files.js";

/** Every request waiting in state/queue, oldest first; a file cut short or hand-broken is skipped, never fatal. */
export async function readQueuedRequests(queueDir: string): Promise<ExperimentRequest[]> {
  const names = (await readdir(queueDir).catch(() => [] as string[])).filter((name) => name.endsWith(".json")).sort();
  const requests = await Promise.all(names.map((name) => readJson<ExperimentRequest>(join(queueDir, name)).catch(() => undefined)));
  return requests.filter((request): request is ExperimentRequest => request !== undefined && request !== null);
}
