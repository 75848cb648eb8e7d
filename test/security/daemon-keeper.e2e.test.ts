// Careless agents: the daemon killed from outside while an agent's experiment runs (the OOM killer, a kill by pid)
// comes back by itself within seconds, and the experiment still gets exactly one verdict. Before the keeper it stayed
// dead until a person ran `org up`, and no verdict came.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { isRunning } from "../helpers/processes.js";
import { findLeftovers } from "../faults/collect.js";
import { gitAs, IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

// The agent's run lasts long enough to kill the daemon in it; the baseline's (value 1) is not waited for.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  careless: { command: ["${bin("careless-submit")}"] }
roles:
  careless: { prompt: prompts/researcher.md, runtime: careless, edits: [value.txt] }
verify:
  command: ["sh", "-c", "[ $(cat value.txt) = 1 ] || sleep 3; echo val_loss: $(cat value.txt)"]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([-+0-9.eE]+)', goal: minimize }
  timeout: 1m
  parallel: 1
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

const readJson = <T>(path: string): T | undefined =>
  existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : undefined;

describe.each(IDENTITIES)("the daemon outlives careless agents, as $name", (who) => {
  test("kill -9 of the daemon from outside during an agent's verify run: " +
    "a new daemon within 10 s, one verdict", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml, files: { "value.txt": "1\n" } });
    const { dir } = org;
    const state = join(dir, "state");
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    // The agent's experiment is queued and its verify run has started (the baseline's came first).
    const request = await pollUntil(() => {
      const queue = join(state, "queue");
      const ids = existsSync(queue)
        ? readdirSync(queue)
            .filter((name) => name.endsWith(".json"))
            .map((name) => name.slice(0, -5))
        : [];
      return ids.find(
        (id) =>
          readJson<{ agent: string }>(join(queue, `${id}.json`))?.agent === "careless-1" &&
          existsSync(join(state, "runs", `${id}.log`)),
      );
    }, { timeoutMs: 60_000, what: "careless-1's verify run" });
    const agent = readJson<{ pid: number }>(join(state, "agents/careless-1/status.json"))!.pid;
    const daemon = readJson<{ pid: number }>(join(state, "daemon.json"))!.pid;
    const killedAt = Date.now();
    process.kill(daemon, "SIGKILL");
    const next = await pollUntil(() => {
      const beat = readJson<{ pid: number | null; heartbeatAt?: string }>(join(state, "daemon.json"));
      return beat?.pid && beat.pid !== daemon && beat.heartbeatAt && isRunning(beat.pid) ? beat.pid : undefined;
    }, { timeoutMs: 10_000, intervalMs: 25, what: "a new daemon's first heartbeat" });
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(isRunning(next)).toBe(true);
    // The experiment the killed daemon was running gets its verdict, once; the agent was never touched.
    const commit = gitAs(who, dir, ["rev-parse", `org/${org.name}/careless-1`]).trim();
    const rows = await pollUntil(() => {
      const found = readResults(state).filter((row) => commit.startsWith(row[0]!));
      return found.length > 0 && !existsSync(join(state, "queue", `${request}.json`)) ? found : undefined;
    }, { timeoutMs: 60_000, what: `the verdict on ${commit.slice(0, 7)}` });
    expect(rows.map((row) => row[3])).toEqual(["keep"]);
    expect(readJson<{ pid: number; state: string }>(join(state, "agents/careless-1/status.json"))).toMatchObject({
      pid: agent,
      state: "running",
    });
    const script = join(state, "agents/careless-1/own/script.log");
    await pollUntil(() => readFileSync(script, "utf8").includes("== done"), {
      timeoutMs: 30_000,
      what: "the agent's submit to return",
    });
    // Its `org submit` waited through the restart for its verdict, rather than call the org down.
    expect(readFileSync(script, "utf8")).toContain("submit: exit 0");
    // The keeper writes its line once the new daemon is up; on a loaded machine that may come after the verdict.
    const logMd = () => readFileSync(join(state, "log.md"), "utf8");
    await pollUntil(
      () => /^## \[[\d-]+\] keeper \| restarted the daemon \(signal SIGKILL\), 1 time since org up$/m.test(logMd()),
      { timeoutMs: 15_000, what: "the keeper's line in log.md", explain: logMd },
    );
    // `org down` ends the new daemon, its keeper and the agent: nothing of the org is left.
    expect(runOrgAs(who, ["down"], { cwd: dir }).code).toBe(0);
    // A killed server takes a moment to exit.
    const { socket } = org;
    await pollUntil(() => findLeftovers(dir, socket).length === 0, {
      what: "nothing of the org left",
      explain: () => findLeftovers(dir, socket).join("\n"),
    });
    expect(isRunning(next)).toBe(false);
  }, 120_000);
});

// results.tsv's rows as cells: commit, metric, memory, status, ...
function readResults(state: string): string[][] {
  const file = join(state, "results.tsv");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(1).map((line) => line.split("\t")) : [];
}
