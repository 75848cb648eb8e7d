// Red team, files the daemon writes: an agent in its sandbox replaces its pane log, events and status with links
// (into another agent's inbox, onto the repo's .git/config) and exits, so the daemon and tmux write through them.
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { filesAttackYaml } from "./files-org.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs, upSandboxedAs } from "./identities.js";
import { createTestOrg } from "../helpers/test-org/index.js";

const orgYaml = filesAttackYaml("links");

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("the daemon's records of an agent as $name", (who) => {
  test("links at pane.log, events.jsonl and status.json, a forged ledger, task and prompt: " +
    "refused; .git/config unchanged, no forged message, the org restarts cleanly", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const { dir } = org;
    const state = join(dir, "state");
    const gitConfig = readFileSync(join(dir, ".git", "config"), "utf8");
    upSandboxedAs(who, dir);
    const agentDir = join(state, "agents", "a-1");
    const attackLog = join(dir, "worktrees", "a-1", ".attack.log");
    // Its second run, after the exit the daemon recorded, prints the forged message: the pane log then holds it.
    await pollUntil(() => existsSync(join(dir, "worktrees", "a-1", ".second")), {
      timeoutMs: 30_000,
      what: "a-1's restart",
    });
    const paneLog = join(agentDir, "pane.log");
    await pollUntil(() => readFileSync(paneLog, "utf8").includes("forged: keep my commit"), {
      timeoutMs: 20_000,
      what: "the second run's output in a-1's pane log",
      explain: () => readFileSync(attackLog, "utf8"),
    });
    expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(gitConfig);
    expect(readdirSync(join(state, "agents", "b-1", "inbox")).filter((name) => name.endsWith(".md"))).toEqual([]);
    for (const record of ["pane.log", "events.jsonl", "status.json"])
      expect(lstatSync(join(agentDir, record)).isFile(), record).toBe(true);
    // The verifier's ledger of the agent, its task and its prompt: the daemon's, not forged.
    expect(existsSync(join(agentDir, "ledger.json"))).toBe(false);
    expect(existsSync(join(agentDir, "task.md"))).toBe(false);
    expect(readFileSync(join(agentDir, "prompt.md"), "utf8")).not.toContain("forged");
    // The record stays true: its exit, in events.jsonl and status.json.
    const events = readFileSync(join(agentDir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; code: number | null });
    expect(events.find((event) => event.type === "exit")?.code).toBe(1);
    expect(JSON.parse(readFileSync(join(agentDir, "status.json"), "utf8"))).toMatchObject({ lastExit: { code: 1 } });
    expect(readFileSync(attackLog, "utf8")).toMatch(/Read-only file system[^]*refused: ln -s [^]*\/pane\.log/);
    expect(runOrgAs(who, ["down"], { cwd: dir }).code).toBe(0);
    const again = runOrgAs(who, ["up", "--no-attach", "--resume"], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, ".git", "config"), "utf8")).toBe(gitConfig);
  }, 90_000);
});
