import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../src/domain/state.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { bin, createTestOrg, readJsonFile, teardownOrg, type TestOrg } from "../helpers/test-org/index.js";

// Preset runtimes whose program is the fake CLI: one draws Claude's real offline screen and exits 1, one
// waits on Codex's real sign-in menu, one idles at Claude's prompt; typed lines land in a log.
const orgYaml = (typed: string) => (name: string) => `name: ${name}
gpus: none
runtimes:
  offline:
    preset: claude
    program: "${bin("fake-agent-cli")}"
    restart: always
    env: { FAKE_SCREEN: claude-2.1.328-offline, FAKE_EXIT: "1" }
  signin:
    preset: codex
    program: "${bin("fake-agent-cli")}"
    env: { FAKE_SCREEN: codex-0.169.0-sign-in, FAKE_TYPED_LOG: "${typed}" }
roles:
  a: { prompt: prompts/researcher.md, runtime: offline }
  b: { prompt: prompts/researcher.md, runtime: signin }
supervisor: { backoff: 200ms, max_backoff: 400ms, max_restarts: 5, healthy_after: 5s }
`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("the daemon reads agents' screens", () => {
  test("an offline CLI that exits is blocked with its fix instead of restart-looping; " +
    "a sign-in menu is blocked alive; nothing is typed", async () => {
    const typed = `/tmp/org-typed-${process.pid}.log`;
    org = createTestOrg({ yaml: orgYaml(typed) });
    const { dir } = org;
    const state = join(dir, "state");
    const up = runOrg(["up"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    const status = (agent: string) => readJsonFile<AgentStatus>(join(state, "agents", agent, "status.json"));
    const offline = await pollUntil(() => (status("a-1").state === "blocked" ? status("a-1") : undefined), {
      what: "a-1 blocked",
      timeoutMs: 20_000,
    });
    expect(offline.reason).toMatch(/cannot reach|offline|connect/i);
    expect(offline.reason).toContain(" — ");
    const signin = await pollUntil(() => (status("b-1").state === "blocked" ? status("b-1") : undefined), {
      what: "b-1 blocked",
      timeoutMs: 20_000,
    });
    expect(signin.reason).toMatch(/log|sign/i);
    expect(signin.pid).not.toBeNull();
    // Blocked means no restart loop: after two more daemon heartbeats (2 s each), a-1 has not been started again.
    const starts = () =>
      readFileSync(join(state, "agents", "a-1", "events.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.includes('"type":"start"')).length;
    const before = starts();
    const heartbeat = () => readJsonFile<{ heartbeatAt?: string }>(join(state, "daemon.json")).heartbeatAt;
    const first = await pollUntil(heartbeat, { what: "a heartbeat" });
    const second = await pollUntil(() => (heartbeat() !== first ? heartbeat() : undefined), {
      what: "the next heartbeat",
      timeoutMs: 10_000,
    });
    await pollUntil(() => heartbeat() !== second, { what: "one more heartbeat", timeoutMs: 10_000 });
    expect(starts()).toBe(before);
    expect(before).toBeLessThanOrEqual(2);
    expect(existsSync(typed)).toBe(false);
    const shown = runOrg(["status"], { cwd: dir }).stdout;
    expect(shown).toMatch(/^a-1\s+a\s+cpu\s+-\s+blocked/m);
  });
});
