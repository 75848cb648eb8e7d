// A verify run is sandboxed: the candidate's train.sh, which its agent wrote, runs with no reach over the org's
// records. It tries to forge a keep row, rewrite the verifier's protected hashes, move refs/frontier/<org> to its
// commit, write another agent's worktree and kill the daemon; each is refused and the org's record stays true.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { FIXTURES } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { gitAs, IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { createTestOrg } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  attacker: { command: ["${process.execPath}", "${FIXTURES}/bin/verify-run-attacker.mjs"] }
roles:
  r: { prompt: prompts/researcher.md, runtime: attacker, count: 2 }
verify:
  command: [sh, train.sh]
  protected: [prepare.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: 1m
  parallel: 1
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
`;
const FILES = { "train.sh": ". ./prepare.sh\n", "prepare.sh": 'echo "val_bpb: 1.0"\n' };
const ATTACKS = ["results", "protected", "frontier", "worktree", "daemon"];

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("a verify run's attacks as $name", (who) => {
  test("train.sh cannot write results, hashes, refs or worktrees, nor signal the daemon", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml, files: FILES });
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.code, up.stderr).toBe(0);
    const state = join(org.dir, "state");
    const results = join(state, "results.tsv");
    const protectedJson = readFileSync(join(state, "verifier", "protected.json"), "utf8");
    const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
    const rows = await pollUntil(
      () => {
        const lines = read(results)
          .trim()
          .split("\n")
          .slice(1)
          .map((line) => line.split("\t"));
        return lines.some((row) => row[4] === "train.sh: attacks the org") ? lines : undefined;
      },
      {
        timeoutMs: 60_000,
        what: "the attacking submit's verdict",
        explain: () => `${read(results)}\n${read(join(state, "agents", "r-1", "own", "attack.log"))}`,
      },
    );
    const judge = (JSON.parse(read(join(state, "daemon.json"))) as { pid: number }).pid;
    const runsDir = join(state, "runs");
    const attacked = readdirSync(runsDir)
      .filter((name) => name.endsWith(".log"))
      .map((name) => read(join(runsDir, name)))
      .find((log) => log.includes("attack results"));
    expect(read(join(state, "agents", "r-1", "own", "attack.log"))).toMatch(/^daemon pid: \d+$/m);
    for (const what of ATTACKS) expect(attacked, what).toContain(`attack ${what}: refused`);
    // The run itself went on to its metric: same value, so discarded, and the record is the verifier's alone.
    expect(rows.map((row) => row[4])).not.toContain("forged row");
    expect(rows.find((row) => row[4] === "train.sh: attacks the org")?.slice(1, 4)).toEqual([
      "1.000000",
      "0.0",
      "discard",
    ]);
    for (const row of rows.filter((each) => each[3] === "keep")) expect(row[4]).toBe("baseline");
    expect(readFileSync(join(state, "verifier", "protected.json"), "utf8")).toBe(protectedJson);
    const base = gitAs(who, org.dir, ["rev-parse", "main"]).trim();
    expect(gitAs(who, org.dir, ["rev-parse", `refs/frontier/${org.name}`]).trim()).toBe(base);
    expect(gitAs(who, org.dir, ["rev-parse", `org/${org.name}/best`]).trim()).toBe(base);
    expect(existsSync(join(org.dir, "worktrees", "r-2", "planted.txt"))).toBe(false);
    // The daemon that judged the run still runs: not killed, not replaced by its keeper.
    const now = JSON.parse(read(join(state, "daemon.json"))) as { pid: number };
    expect(() => process.kill(now.pid, 0)).not.toThrow();
    expect(now.pid).toBe(judge);
  }, 90_000);
});
