// An org whose one agent attacks the repo's shared object store from its sandbox, then submits an honestly worse
// change; what the org recorded afterwards, for test/security/objects*.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { gitAs, runOrgAs, type Identity, type OrgAs } from "./identities.js";
import { createTestOrg, readResultRows } from "../helpers/test-org/index.js";

/** The protected scorer: it says it is the real one, then the metric is value.txt (lower is better). */
export const REAL_SCORER = 'echo "scorer: real"\necho "val_bpb: $(cat value.txt)"\n';

const orgYaml = (mode: "rewrite" | "preseed" | "parents") => (name: string) => `name: ${name}
gpus: none
runtimes:
  attacker: { command: ["${process.execPath}", "${FIXTURES}/bin/objects-attacker.mjs", ${mode}] }
roles:
  r: { prompt: prompts/researcher.md, runtime: attacker }
verify:
  command: [sh, score.sh]
  protected: [score.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: 1m
  parallel: 1
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
`;

export interface Attacked {
  org: OrgAs;
  /** attack.log of the agent, line by line. */
  log: string[];
  /** results.tsv without its header: commit, metric, memory, status, description, … */
  rows: string[][];
  base: string;
  /** Where org/<name>/best points. */
  best: string;
  /** Every verify run's log. */
  runs: string[];
  logMd: string;
}

/** Up, the attack, its submit's verdict; the org is left up for the test's teardown. */
export async function runAttack(
  who: Identity,
  mode: "rewrite" | "preseed" | "parents",
  keep: (org: OrgAs) => void,
): Promise<Attacked> {
  const org = createTestOrg({ as: who, yaml: orgYaml(mode), files: { "score.sh": REAL_SCORER, "value.txt": "1.0\n" } });
  keep(org);
  const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
  if (up.code !== 0) throw new Error(`org up failed: ${up.stderr}`);
  const state = join(org.dir, "state");
  const file = join(state, "agents", "r-1", "own", "attack.log");
  const text = await pollUntil(
    () => (existsSync(file) && readFileSync(file, "utf8").includes("== done") ? readFileSync(file, "utf8") : undefined),
    {
      timeoutMs: 60_000,
      what: "the attacker's submit to get its verdict",
      explain: () => (existsSync(file) ? readFileSync(file, "utf8") : "no attack.log"),
    },
  );
  const runsDir = join(state, "runs");
  return {
    org, log: text.trim().split("\n"),
    rows: readResultRows(state),
    base: gitAs(who, org.dir, ["rev-parse", "main"]).trim(),
    best: gitAs(who, org.dir, ["rev-parse", `org/${org.name}/best`]).trim(),
    runs: readdirSync(runsDir)
      .filter((name) => name.endsWith(".log"))
      .map((name) => readFileSync(join(runsDir, name), "utf8")),
    logMd: readFileSync(join(state, "log.md"), "utf8"),
  };
}
