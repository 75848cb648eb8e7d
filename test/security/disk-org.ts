// An org of two agents that fill the disk from their own folders (worktree, state folder) and one that submits forever.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LOOPING_VERIFY } from "../helpers/stop-org.js";
import { runOrgAs, type OrgAs } from "./identities.js";
import { bin } from "../helpers/test-org/index.js";

/** org.yaml with `disk` as sandbox.disk; each filler writes `fill` MiB, a MiB every 100 ms. */
export const diskOrgYaml = (disk: string, fill: number) => (name: string) => `name: ${name}
gpus: none
runtimes:
  filler: { command: ["${bin("disk-filler")}", worktree, "${fill}"] }
  stasher: { command: ["${bin("disk-filler")}", state, "${fill}"] }
  looper: { command: ["${bin("submit-loop")}"] }
roles:
  filler: { prompt: prompts/researcher.md, runtime: filler }
  stasher: { prompt: prompts/researcher.md, runtime: stasher }
  researcher: { prompt: prompts/researcher.md, runtime: looper, edits: [value.txt] }
${LOOPING_VERIFY}sandbox:
  disk: ${disk}
`;

export interface AgentJson { name: string; state: string; reason: string; restarts: number }

export const statusOf = (org: OrgAs) =>
  JSON.parse(runOrgAs(org.who, ["status", "--json"], { cwd: org.dir }).stdout || "{}") as {
    agents?: AgentJson[];
    disk?: { low: string | null } | null;
  };
export const logOf = (org: OrgAs) => readFileSync(join(org.dir, "state", "log.md"), "utf8");

/** results.tsv rows of researcher-1: its verdicts so far. */
export function countVerdicts(org: OrgAs): number {
  const file = join(org.dir, "state", "results.tsv");
  return (existsSync(file) ? readFileSync(file, "utf8") : "")
    .split("\n")
    .filter((line) => line.includes("\tresearcher-1\t")).length;
}

export const explainOrg = (org: OrgAs) => () =>
  `${logOf(org)}\n${runOrgAs(org.who, ["status"], { cwd: org.dir }).stdout}`;
