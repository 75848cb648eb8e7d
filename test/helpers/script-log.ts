import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What a scripted agent (test/fixtures/bin) wrote to state/agents/<agent>/own/script.log, or "" before it starts. */
export function readScriptLog(state: string, agent: string): string {
  const file = join(state, "agents", agent, "own", "script.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** The output a scripted agent logged under `== <heading>`, up to its next heading. */
export function scriptSection(log: string, heading: string): string {
  return log.split(/^== /m).find((part) => part.startsWith(`${heading}\n`))?.slice(heading.length + 1) ?? "";
}
