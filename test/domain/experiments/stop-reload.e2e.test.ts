import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { StopFile } from "../../../src/domain/experiments/stop-state.js";
import type { AgentStatus } from "../../../src/domain/state.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { LOOPING_FILES, loopingOrgYaml } from "../../helpers/stop-org.js";
import { createTestOrg, readJsonFile, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

// One researcher that submits forever, stopped after two experiments;
// then its prompt is saved while the org is stopped.
const orgYaml = loopingOrgYaml(1);

let org: TestOrg | undefined;
afterAll(() => teardownOrg(org));

describe("a prompt saved while the org is stopped", () => {
  test("is recorded (reload entry, program version) but restarts no agent; "
    + "a raised limit resumes it with the new prompt", async () => {
    org = createTestOrg({ yaml: orgYaml(2), files: LOOPING_FILES });
    const { dir } = org;
    const state = join(dir, "state");
    const up = runOrg(["up", "--no-attach"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const log = () => readFileSync(join(state, "log.md"), "utf8");
    const explain = () => `${log()}\n${runOrg(["status"], { cwd: dir }).stdout}`;
    const status = () => readJsonFile<AgentStatus>(join(state, "agents", "researcher-1", "status.json"));
    const history = () => (existsSync(join(state, "programs", "history.jsonl"))
      ? readFileSync(join(state, "programs", "history.jsonl"), "utf8").trim().split("\n")
      : []);
    await pollUntil(() => {
      const file = existsSync(join(state, "stop.json")) ? readJsonFile<StopFile>(join(state, "stop.json")) : undefined;
      return file?.kind === "stop" && file.phase === "stopped";
    }, { what: "the stop to complete", timeoutMs: 90_000, explain });
    const versions = history().length;

    writeFileSync(join(dir, "prompts/researcher.md"), "# {{agent}}: try smaller values first\n");
    await pollUntil(() => /reload \| 1 action: ~researcher-1 \(daemon\)/.test(log()), {
      what: "the reload entry",
      timeoutMs: 30_000,
      explain,
    });
    expect(log()).toContain("~ update researcher-1 (prompt changed): the org is stopped, "
      + "so it stays stopped and starts with this when the org resumes");
    await pollUntil(() => history().length > versions, {
      what: "the new program version in history.jsonl",
      timeoutMs: 30_000,
      explain,
    });
    expect(readFileSync(join(state, "agents", "researcher-1", "prompt.md"), "utf8")).toContain(
      "try smaller values first",
    );
    // Still stopped: its status says so and its pane is dead.
    expect([status().state, status().reason]).toEqual([
      "stopped", expect.stringMatching(/^org stopped: max_experiments reached/),
    ]);
    expect(status().pid === null || !isRunning(status().pid!)).toBe(true);
    const pane = tmux(org.socket, [
      "list-panes", "-s", "-t", `org-${org.name}`, "-F", "#{@org_agent} #{pane_dead}",
    ]).out.split("\n").filter((line) => line.startsWith("researcher"));
    expect(pane).toEqual(["researcher-1 1"]);
    expect(runOrg(["status"], { cwd: dir }).stdout.split("\n")[1]).toMatch(/^stopped: max_experiments reached/);

    // A raised limit resumes it, with the prompt saved while it was stopped.
    writeFileSync(join(dir, "org.yaml"), orgYaml(1000)(org.name));
    await pollUntil(() => log().includes("resume | the stop no longer holds (stop.max_experiments now 1000)"), {
      what: "the resume entry",
      timeoutMs: 30_000,
      explain,
    });
    await pollUntil(() => status().state === "running" && status().pid !== null, {
      what: "researcher-1 running again",
      timeoutMs: 30_000,
      explain,
    });
    expect(readFileSync(join(state, "agents", "researcher-1", "prompt.md"), "utf8")).toContain(
      "try smaller values first",
    );
  }, 240_000);
});
