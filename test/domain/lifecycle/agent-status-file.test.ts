import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import {
  readAgentStatus, readAgentStatuses, writeAgentStatus,
} from "../../../src/domain/lifecycle/agent-status-file.js";
import { parseAgentStatus } from "../../../src/domain/lifecycle/agent-status-schema.js";
import type { AgentStatus } from "../../../src/domain/state.js";
import { readStatuses } from "../../../src/domain/views/status-snapshot.js";
import type { World } from "../../../src/domain/world.js";

const AT = "2026-12-05T09:00:00.000Z";
const running: AgentStatus = {
  agent: "a-1", state: "running", pid: 4242, startedAt: AT, restarts: 1, consecutiveFailures: 0,
  lastExit: { code: 1, signal: null, at: AT, pid: 4000 }, reason: "running claude", updatedAt: AT, restartAt: null,
};
let state: string;
const file = (agent: string) => join(state, "agents", agent, "status.json");
const put = (agent: string, text: string) => {
  mkdirSync(join(state, "agents", agent), { recursive: true });
  writeFileSync(file(agent), text);
};

describe("state/agents/<agent>/status.json, through its owner", () => {
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), "org-status-file-"));
  });
  afterEach(() => rmSync(state, { recursive: true, force: true }));

  test("a written status reads back as written, whole, with a field a newer org added kept", async () => {
    mkdirSync(join(state, "agents", "a-1"), { recursive: true });
    await writeAgentStatus(filesPort, state, "a-1", { ...running, newer: 1 } as AgentStatus);
    expect(readFileSync(file("a-1"), "utf8")).toBe(`${JSON.stringify({ ...running, newer: 1 }, null, 2)}\n`);
    expect(await readAgentStatus(filesPort, state, "a-1")).toEqual({ ...running, newer: 1 });
  });

  test("missing, cut short, or of another shape reads as no status, and the file is left as it was", async () => {
    put("cut", JSON.stringify(running).slice(0, 40));
    put("shape", JSON.stringify({ ...running, state: "dancing" }));
    put("array", "[1, 2]");
    put("empty", "");
    const agents = ["a-1", "cut", "shape", "array", "empty"];
    const statuses = await readAgentStatuses(filesPort, state, agents);
    expect([...statuses]).toEqual(agents.map((agent) => [agent, undefined]));
    expect(readFileSync(file("shape"), "utf8")).toBe(JSON.stringify({ ...running, state: "dancing" }));
  });

  test("the status view shows a malformed agent as not started, beside a good one, rather than failing", async () => {
    put("a-1", JSON.stringify(running));
    put("b-1", "{ not json");
    const world = { files: filesPort } as unknown as World;
    const statuses = await readStatuses(world, state, ["a-1", "b-1"]);
    expect(statuses.get("a-1")).toEqual(running);
    expect(statuses.has("b-1")).toBe(true);
    expect(statuses.get("b-1")).toBeUndefined();
  });
});

describe("a status file's fields, each checked as the supervisor writes it", () => {
  const shapes: [string, unknown][] = [
    ["a state org does not know", { ...running, state: "dancing" }],
    ["a pid that is text", { ...running, pid: "4242" }],
    ["no restarts count", { ...running, restarts: undefined }],
    ["a last exit without its time", { ...running, lastExit: { code: 1, signal: null } }],
    ["a last exit whose pid is text", { ...running, lastExit: { ...running.lastExit, pid: "4000" } }],
    ["a restart time that is a number", { ...running, restartAt: 5 }],
    ["a list", [running]],
    ["null", null],
  ];
  test.each(shapes)("%s reads as no status", (_what, value) => {
    expect(parseAgentStatus(value)).toBeUndefined();
  });

  test("nulls where the supervisor writes them, and no restartAt at all, read as the status", () => {
    const starting = { ...running, pid: null, startedAt: null, lastExit: null, restartAt: undefined };
    expect(parseAgentStatus(starting)).toEqual(starting);
    expect(parseAgentStatus({ ...running, lastExit: { code: null, signal: "SIGKILL", at: AT } }))
      .toEqual({ ...running, lastExit: { code: null, signal: "SIGKILL", at: AT } });
  });
});
