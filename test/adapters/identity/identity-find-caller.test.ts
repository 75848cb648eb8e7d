import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { findCaller } from "../../../src/adapters/identity/find-caller.js";

// This test process stands for agent a-1's pane root: status.json records its pid, as the supervisor would.
const roster = [{ name: "a-1", role: "a" }, { name: "b-1", role: "b" }];
let root: string;

function runningStatus(startedAt: string) {
  const fields = { restarts: 0, consecutiveFailures: 0, lastExit: null, reason: "running", updatedAt: startedAt };
  return { agent: "a-1", state: "running", pid: process.pid, startedAt, ...fields };
}

function writeOrg(backend: "local" | "slurm", startedAt = new Date().toISOString()): void {
  mkdirSync(join(root, "state", "agents", "a-1"), { recursive: true });
  writeFileSync(
    join(root, "state", "org.json"),
    JSON.stringify({
      version: 1,
      backend,
      agents: roster.map((agent) => ({ ...agent, worktree: join(root, agent.name) })),
    }),
  );
  writeFileSync(join(root, "state", "agents", "a-1", "status.json"), JSON.stringify(runningStatus(startedAt)));
}

describe("findCaller, against this process's own /proc ancestry", () => {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "org-identity-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("inside a recorded pane the pane is the caller, and ORG_AGENT naming another is refused", async () => {
    writeOrg("local");
    await expect(findCaller(root, roster, {})).resolves.toEqual({ kind: "agent", agent: "a-1", role: "a" });
    await expect(findCaller(root, roster, { ORG_AGENT: "b-1" })).rejects.toThrow(
      "you are a-1 (this pane's agent); ORG_AGENT=b-1 names another agent — unset it",
    );
  });

  test("a pid recorded before this process started is a dead pane's: " +
    "ORG_AGENT is taken, as outside every pane", async () => {
    writeOrg("local", "2020-01-01T00:00:00.000Z");
    await expect(findCaller(root, roster, { ORG_AGENT: "b-1" })).resolves.toEqual({
      kind: "agent",
      agent: "b-1",
      role: "b",
    });
  });

  test("under Slurm panes are on other nodes: ORG_AGENT decides; with no org.json, the person", async () => {
    writeOrg("slurm");
    await expect(findCaller(root, roster, { ORG_AGENT: "b-1" })).resolves.toEqual({
      kind: "agent",
      agent: "b-1",
      role: "b",
    });
    rmSync(join(root, "state", "org.json"));
    await expect(findCaller(root, roster, {})).resolves.toEqual({ kind: "person" });
  });
});
