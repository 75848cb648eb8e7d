// Careless kills: an agent clearing "its" stale runs with pkill -f <the verify script>, pkill node and kill -9 -1
// reaches only its own processes (its pid namespace): the other agents' verify runs and the daemon live on, and every
// baseline gets its verdict.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { isAlive } from "../../src/adapters/process.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { bin, createTestOrg, readJsonFile } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  killer: { command: ["${bin("careless-killer")}", "3"], restart: never }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: killer }
  b: { prompt: prompts/researcher.md, runtime: idle, count: 2 }
verify:
  command: [sh, verify-slow.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
`;

const VERIFY = 'sleep 1\necho "val_bpb: 1.0"\n';

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("careless kills end only the agent's own processes, as $name", (who) => {
  test("pkill -f verify-slow, pkill node, kill -9 -1 in a pane: the daemon lives, all baselines judged", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml, files: { "verify-slow.sh": VERIFY } });
    const { dir } = org;
    upSandboxedAs(who, dir);
    const state = join(dir, "state");
    const readPid = () => readJsonFile<{ pid: number | null }>(join(state, "daemon.json")).pid ?? undefined;
    const daemon = await pollUntil(readPid, { what: "the daemon's pid" });
    const log = join(state, "agents", "a-1", "own", "kills.log");
    await pollUntil(() => existsSync(log) && readFileSync(log, "utf8").includes("== done"), {
      timeoutMs: 60_000, what: "the kills to stop",
      explain: () => (existsSync(log) ? readFileSync(log, "utf8") : "no kills.log"),
    });
    expect(readFileSync(log, "utf8")).toBe("own pid namespace: yes\n== done\n");
    const lines = readFileSync(join(state, "results.tsv"), "utf8").trimEnd().split("\n").slice(1);
    const rows = lines.map((line) => line.split("\t"));
    expect(rows.map((row) => [row[1], row[3], row[4], row[5]]).sort()).toEqual([
      ["1.000000", "keep", "baseline", "a-1"],
      ["1.000000", "keep", "baseline", "b-1"],
      ["1.000000", "keep", "baseline", "b-2"],
    ]);
    expect(isAlive(daemon)).toBe(true);
    expect(runOrgAs(who, ["status"], { cwd: dir }).stdout).toMatch(/^b-2 +b +cpu +\d+ +running /m);
  }, 120_000);
});
