import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { StopFile } from "../../../src/domain/experiments/stop-state.js";
import type { AgentStatus } from "../../../src/domain/state.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { LOOPING_FILES, loopingOrgYaml } from "../../helpers/stop-org.js";
import {
  createTestOrg, describeOrgProcesses, readJsonFile, teardownOrg, type TestOrg, tmux,
} from "../../helpers/test-org/index.js";

// Two researchers that submit forever, and a stop after three
// experiments: the whole stop, then a raised limit resumes it.
const orgYaml = loopingOrgYaml(2);

let org: TestOrg | undefined;
afterAll(() => teardownOrg(org));

describe("an org that knows when to stop", () => {
  test("max_experiments: 3 stops it: log entry, one message each, programs stopped, panes kept, report, status; " +
    "a plain org up refuses; --resume goes on; a new limit stops it again, a raised one resumes", async () => {
    org = createTestOrg({ yaml: orgYaml(3), files: LOOPING_FILES });
    const { dir } = org;
    const state = join(dir, "state");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const stopFile = () =>
      existsSync(join(state, "stop.json")) ? readJsonFile<StopFile>(join(state, "stop.json")) : undefined;
    const log = () => readFileSync(join(state, "log.md"), "utf8");
    const explain = () => `${log()}\n${runOrg(["status"], { cwd: dir }).stdout}\n${describeOrgProcesses(org!)}`;
    const pids = await pollUntil(() => {
      const statuses = ["researcher-1", "researcher-2"].map((agent) =>
        readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json")),
      );
      return statuses.every((status) => status.state === "running" && status.pid)
        ? statuses.map((status) => status.pid!)
        : undefined;
    }, { what: "both agents running", timeoutMs: 20_000 });

    const stopped = await pollUntil(() => {
      const file = stopFile();
      return file?.kind === "stop" && file.phase === "stopped" ? file : undefined;
    }, { what: "the stop to complete", timeoutMs: 60_000, explain });
    expect(stopped.reason).toMatch(/^max_experiments reached: \d+ experiments of 3$/);
    const entries = log().split("\n").filter((line) => line.startsWith("## ["));
    expect(entries.filter((line) => / (stop|stopped) \| /.test(line))).toEqual([
      expect.stringMatching(/^## \[\d{4}-\d\d-\d\d\] stop \| max_experiments reached: \d+ experiments of 3$/),
      expect.stringMatching(/ stopped \| max_experiments reached/),
    ]);
    expect(log()).toMatch(/stopped \| .*\n.*\nagents stopped; report .*state\/report\.html\n/);
    expect(existsSync(join(state, "report.html"))).toBe(true);
    for (const agent of ["researcher-1", "researcher-2"]) {
      const inbox = join(state, "agents", agent, "inbox");
      const stops = readdirSync(inbox)
        .filter((name) => name.endsWith(".md"))
        .map((name) => readFileSync(join(inbox, name), "utf8"))
        .filter((text) => /\nkind: stop\n/.test(text));
      expect(stops).toHaveLength(1);
      expect(stops[0]).toContain(`# The org stops: ${stopped.reason}`);
    }
    // The programs are gone and stay gone (their restart policy is on-failure); their panes stay for a person to read.
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
    const panes = tmux(org.socket, ["list-panes", "-s", "-t", `org-${org.name}`, "-F", "#{@org_agent} #{pane_dead}"])
      .out.split("\n")
      .filter((line) => line.startsWith("researcher"));
    expect(panes.sort()).toEqual(["researcher-1 1", "researcher-2 1"]);

    const status = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as {
      stopped: string | null;
      agents: { name: string; state: string; pid: number | null; reason: string }[];
    };
    expect(status.stopped).toBe(stopped.reason);
    expect(status.agents.map((agent) => [agent.name, agent.state, agent.pid, agent.reason])).toEqual([
      ["researcher-1", "stopped", null, `org stopped: ${stopped.reason}`],
      ["researcher-2", "stopped", null, `org stopped: ${stopped.reason}`],
    ]);
    expect(runOrg(["status"], { cwd: dir }).stdout.split("\n")[1]).toMatch(
      new RegExp(
        /^stopped: max_experiments reached: \d+ experiments of 3 · \d+ experiments · \d+\.\d GPU-h · \$0\.00 /.source +
        /· best val_bpb 1 \(researcher-\d [0-9a-f]{7}\) · report state\/report\.html — to go on, raise the /.source +
        /limit in org\.yaml or run `org up --resume`$/.source,
      ),
    );

    const again = runOrg(["up", "--no-attach"], { cwd: dir });
    expect([again.code, again.stderr.trim()]).toEqual([
      1,
      `org ${org.name} stopped: ${stopped.reason} — to go on, raise stop.max_experiments (now 3) in org.yaml, ` +
        `or run \`org up --resume\` to go on past it`,
    ]);

    // `org up --resume` goes on past the limit as it is now: the same programs' panes start again.
    const resumed = runOrg(["up", "--no-attach", "--resume"], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    // Its figures are today's: the queued runs that finished after the stop count too.
    expect(resumed.stdout).toMatch(
      /^going on past stop\.max_experiments 3 \(max_experiments reached: \d+ experiments of 3\)\n/,
    );
    await pollUntil(() => log().includes("resume | the stop no longer holds (org up --resume)"), {
      what: "the --resume entry",
      timeoutMs: 20_000,
      explain,
    });
    // Polled in the status files, an `org status` process less each look; then `org status --json` says the same.
    const isNew = (old: number[]) => (agents: { state: string; pid?: number | null }[]) =>
      agents.every((agent) => agent.state === "running" && agent.pid && !old.includes(agent.pid));
    const running = async (old: number[]) => {
      const pidsNow = await pollUntil(() => {
        const statuses = ["researcher-1", "researcher-2"]
          .map((agent) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json")));
        return isNew(old)(statuses) ? statuses.map((status) => status.pid!) : undefined;
      }, { what: "both agents running again", timeoutMs: 20_000, explain });
      const { agents } = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as {
        agents: { state: string; pid: number | null }[];
      };
      expect(isNew(old)(agents)).toBe(true);
      expect(agents.map((agent) => agent.pid)).toEqual(pidsNow);
      return pidsNow;
    };
    const second = await running(pids);

    // A new value applies again: 4 is met at once; then raised to 1000, the daemon's next look resumes the org.
    writeFileSync(join(dir, "org.yaml"), orgYaml(4)(org.name));
    await pollUntil(() => {
      const file = stopFile();
      return file?.kind === "stop" && file.phase === "stopped" && file.reason.endsWith("experiments of 4");
    }, { what: "the second stop", timeoutMs: 60_000, explain });
    writeFileSync(join(dir, "org.yaml"), orgYaml(1000)(org.name));
    await pollUntil(() => log().includes("resume | the stop no longer holds (stop.max_experiments now 1000)"), {
      what: "the resume entry",
      timeoutMs: 20_000,
      explain,
    });
    await running([...pids, ...second]);
    expect(runOrg(["status"], { cwd: dir }).stdout.split("\n")[1]).toMatch(/^stop: \d+\/1000 experiments$/);
  }, 240_000);
});
