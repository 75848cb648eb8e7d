import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus, OrgRecord } from "../../../src/domain/state.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import {
  createTestOrg, printerOrgYaml, readJsonFile, readResultRows, teardownOrg, type TestOrg, tmux,
} from "../../helpers/test-org/index.js";

const orgYaml = (count: number) => printerOrgYaml(count, ", edits: [train.py]");

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

/** `id pid agent role gpu status` of every pane, the control pane first. */
function listPanes(o: { socket: string; name: string }): string[] {
  return tmux(o.socket, [
    "list-panes",
    "-s",
    "-t",
    `org-${o.name}`,
    "-F",
    "#{pane_id} #{pane_pid} #{@org_agent} #{@org_role} #{@org_gpu} #{@org_status}",
  ])
    .out.trim()
    .split("\n");
}

const status = (state: string, agent: string) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json"));

describe("hot reload of a running org", () => {
  test("saving org.yaml and a prompt adds, re-prompts and removes agents; the grid and state follow", async () => {
    org = createTestOrg({ yaml: orgYaml(2) });
    const { dir, name } = org;
    const state = join(dir, "state");
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const before = listPanes(org);
    expect(before.map((line) => line.split(" ").slice(2).join(" "))).toEqual([
      "   ",
      "researcher-1 researcher cpu running",
      "researcher-2 researcher cpu running",
    ]);

    writeFileSync(join(dir, "org.yaml"), orgYaml(3)(name));
    const added = await pollUntil(() => {
      const panes = listPanes(org!);
      const logged = readFileSync(join(state, "log.md"), "utf8").includes("reload | 2 actions: +researcher-3 (daemon)");
      return logged && panes.length === 4 && panes[3]!.endsWith("researcher-3 researcher cpu running")
        ? panes
        : undefined;
    }, { what: "researcher-3's pane running", timeoutMs: 15_000 });
    expect(added.slice(0, 3)).toEqual(before);
    const paneId = added[3]!.split(" ")[0]!;
    const screen = await pollUntil(
      () => tmux(org!.socket, ["capture-pane", "-p", "-t", paneId]).out.match(/^ORG_AGENT=.*$/m)?.[0],
      { what: "the new agent's env" },
    );
    expect(screen).toBe("ORG_AGENT=researcher-3");
    const record = readJsonFile<OrgRecord>(join(state, "org.json"));
    expect(record.agents.map((agent) => [agent.name, agent.paneId])).toEqual([
      ["researcher-1", before[1]!.split(" ")[0]],
      ["researcher-2", before[2]!.split(" ")[0]],
      ["researcher-3", paneId],
    ]);
    expect(git(join(dir, "worktrees/researcher-3"), ["rev-parse", "--abbrev-ref", "HEAD"]).trim()).toBe(
      `org/${name}/researcher-3`,
    );
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        /^## \[\d{4}-\d\d-\d\d\] reload \| 2 actions: \+researcher-3 \(daemon\)\n/.source +
        /\+ add researcher-3 \(roles\.researcher\.count 2 → 3\): worktree, pane\n/.source +
        /# retile the grid: 4 panes \(panes 1 added\)\n/.source,
        "m",
      ),
    );

    for (const command of ["plan", "reload"]) {
      const again = runOrg([command], { cwd: dir });
      expect([again.code, again.stdout.trim()]).toEqual([0, "nothing to do: the running org matches org.yaml"]);
    }
    expect(listPanes(org)).toEqual(added);

    const oldPids = ["researcher-1", "researcher-2", "researcher-3"].map((agent) => status(state, agent).pid);
    appendFileSync(join(dir, "prompts/researcher.md"), "Think before you submit.\n");
    const restarted = await pollUntil(() => {
      const statuses = ["researcher-1", "researcher-2", "researcher-3"].map((agent) => status(state, agent));
      return statuses.every((s, index) => s.state === "running" && s.pid !== oldPids[index]) ? statuses : undefined;
    }, { what: "every researcher restarted with the new prompt", timeoutMs: 15_000 });
    for (const pid of oldPids) expect(isRunning(pid!)).toBe(false);
    expect(readFileSync(join(state, "agents/researcher-2/prompt.md"), "utf8")).toContain(
      "You are researcher-2 (researcher) on GPU none (CPU). Edit only train.py.\nThink before you submit.\n",
    );
    expect(listPanes(org).map((line) => line.split(" ")[0])).toEqual(added.map((line) => line.split(" ")[0]));
    expect(restarted.map((s) => s.restarts)).toEqual([0, 0, 0]);

    writeFileSync(join(dir, "org.yaml"), orgYaml(1)(name));
    // The log entry is written last, once org.json and the grid are done.
    await pollUntil(
      () =>
        readFileSync(join(state, "log.md"), "utf8").includes(
          "reload | 3 actions: -researcher-2 -researcher-3 (daemon)",
        ),
      { what: "two researchers removed", timeoutMs: 15_000 },
    );
    const removed = listPanes(org);
    expect(removed).toHaveLength(2);
    expect(removed[1]!.split(" ").slice(2).join(" ")).toBe("researcher-1 researcher cpu running");
    for (const agent of ["researcher-2", "researcher-3"]) {
      const last = status(state, agent);
      expect([last.state, last.reason]).toEqual(["stopped", "removed from org.yaml"]);
      expect(existsSync(join(dir, "worktrees", agent))).toBe(true);
      expect(git(dir, ["rev-parse", "--verify", "--quiet", `refs/heads/org/${name}/${agent}`]).trim()).toMatch(
        /^[0-9a-f]{40}$/,
      );
    }
    expect(restarted.slice(1).every((s) => !isRunning(s.pid!))).toBe(true);
    expect(readJsonFile<OrgRecord>(join(state, "org.json")).agents.map((agent) => agent.name)).toEqual([
      "researcher-1",
    ]);
    const statusOut = runOrg(["status"], { cwd: dir }).stdout;
    expect(statusOut).toMatch(/^researcher-1\s+researcher\s+cpu\s+\d+\s+running/m);
    expect(statusOut).not.toContain("warning");

    const down = runOrg(["down"], { cwd: dir });
    expect(down.code).toBe(0);
    expect(isRunning(restarted[0]!.pid!)).toBe(false);
  }, 120_000);

  test("with reload.watch false a save waits: org plan shows the actions, " +
    "org reload applies them once; the verifier judges the new agent", async () => {
    const verify =
      "verify:\n  command: [sh, -c, 'echo val_bpb: 1.0']\n  metric: { name: val_bpb, pattern: " +
        "'^val_bpb:\\s*([0-9.]+)' }\n";
    const quiet = (count: number) => (name: string) => `${orgYaml(count)(name)}${verify}reload: { watch: false }\n`;
    org = createTestOrg({ yaml: quiet(1) });
    const { dir, name } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const before = listPanes(org);
    writeFileSync(join(dir, "org.yaml"), quiet(2)(name));
    const control = before[0]!.split(" ")[0]!;
    await pollUntil(
      () =>
        tmux(org!.socket, ["capture-pane", "-p", "-t", control]).out.includes(
          "org.yaml differs from the running org by 2 actions; reload.watch is false: `org reload` applies them",
        ),
      { what: "the daemon's notice" },
    );
    expect(listPanes(org)).toEqual(before);
    const plan = runOrg(["plan"], { cwd: dir });
    expect([plan.code, plan.stdout.trim()]).toEqual([0, [
      "org plan: 2 actions; `org reload` applies them",
      "  + add researcher-2 (roles.researcher.count 1 → 2): worktree, pane",
      "  # retile the grid: 3 panes (panes 1 added)",
    ].join("\n")]);
    const json = runOrg(["plan", "--json"], { cwd: dir });
    expect([json.code, JSON.parse(json.stdout)]).toEqual([
      0,
      {
        kind: "planned",
        warnings: [],
        problems: [],
        actions: [
          {
            kind: "add-agent",
            agent: "researcher-2",
            reason: "roles.researcher.count 1 → 2",
            text: "+ add researcher-2 (roles.researcher.count 1 → 2): worktree, pane",
          },
          { kind: "retile", panes: 3, reason: "panes 1 added", text: "# retile the grid: 3 panes (panes 1 added)" },
        ],
      },
    ]);
    expect(listPanes(org)).toEqual(before);
    const reload = runOrg(["reload"], { cwd: dir });
    expect([reload.code, reload.stdout.trim()]).toEqual([0, [
      "reloaded: 2 actions applied",
      "  + add researcher-2 (roles.researcher.count 1 → 2): worktree, pane",
      "  # retile the grid: 3 panes (panes 1 added)",
    ].join("\n")]);
    expect(listPanes(org).length).toBe(3);
    await pollUntil(() => existsSync(join(dir, "state/agents/researcher-2/ledger.json")), {
      what: "the new agent's baseline verified",
      timeoutMs: 30_000,
    });
    expect(runOrg(["reload"], { cwd: dir }).stdout.trim()).toBe("nothing to do: the running org matches org.yaml");
    expect(readFileSync(join(dir, "state/log.md"), "utf8").match(/^## \[.*\] reload \|.*$/gm)).toEqual([
      expect.stringMatching(/reload \| 2 actions: \+researcher-2 \(org reload\)$/),
    ]);
    // Each agent's baseline row carries the program it was queued under: the first, then the one `org reload` applied.
    const programs = readFileSync(join(dir, "state/log.md"), "utf8")
      .match(/^## \[.*\] program \|.*$/gm)!
      .map((line) => /program \| ([0-9a-f]{8}) /.exec(line)![1]);
    expect(readFileSync(join(dir, "state/log.md"), "utf8").match(/^## \[.*\] program \|.*$/gm)).toEqual([
      expect.stringMatching(/program \| [0-9a-f]{8} is the first program, by `org up`$/),
      expect.stringMatching(new RegExp(`program \\| ${programs[1]} replaces ${programs[0]}, by \`org reload\`$`)),
    ]);
    const rows = readResultRows(join(dir, "state"));
    expect(rows.map((row) => [row[5], row[9]]).sort()).toEqual([
      ["researcher-1", programs[0]],
      ["researcher-2", programs[1]],
    ]);
  }, 120_000);
});
