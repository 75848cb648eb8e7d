// state/frontier.json (frontier-b.json: program B's half of an A/B run): the org best as the verifier last moved it.
// The journal is the truth; this file is derived from it, written only by adapters/verifier/frontier-writer.ts.
import { join } from "node:path";
import { FrontierSchema, type Frontier } from "../../domain/experiments/frontier.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";

function frontierFile(state: string, half: "b" | undefined): string {
  return join(state, half ? "frontier-b.json" : "frontier.json");
}

/** A half's frontier; undefined when there is none yet, or the file is cut short or of another shape. */
export async function readFrontier(state: string, half?: "b"): Promise<Frontier | undefined> {
  const value = await readJson(frontierFile(state, half)).catch(() => undefined);
  const parsed = FrontierSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Written whole or not at all; `frontier.half` picks the file. */
export async function writeFrontierFile(state: string, frontier: Frontier): Promise<void> {
  await writeJsonAtomic(frontierFile(state, frontier.half), frontier);
}
