import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { AgentStatus } from "../../../src/domain/state.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

// Installed programs that are not what org expects: another version, or one that exits 127 at once.
describe("a runtime program that is installed but not the one org was tested with, or broken", () => {
  let org: TestOrg | undefined;
  let tools: string | undefined;
  afterEach(() => {
    teardownOrg(org);
    if (tools) removeDir(tools);
    org = tools = undefined;
  });

  /** An executable script in a folder of its own, outside the repo. */
  const writeTool = (name: string, body: string) => {
    tools ??= mkdtempSync(join(tmpdir(), "org-tools-"));
    const path = join(tools, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  test("org doctor names another version than the tested one, with the install command pinned to it", () => {
    const claude = writeTool("claude", 'echo "2.0.1 (Claude Code)"');
    org = createTestOrg({
      yaml: (name) => `name: ${name}\nruntimes:\n  old: { preset: claude, program: ${claude} }\nroles:\n`
        + `  researcher: { prompt: prompts/researcher.md, runtime: old }\n`,
    });
    const result = runOrg(["doctor"], { cwd: org.dir });
    const row = result.stdout.split("\n").find((line) => line.startsWith("runtime old"));
    expect(row).toMatch(
      new RegExp(/^runtime old +warn +2\.0\.1 \(Claude Code\); .*2\.0\.1 is not 2\.1\.328, the version org was /.source
        + /tested with: org may not recognize its screens \(login, errors, dialogs\) +.*npm install -g /.source
        + /@anthropic-ai\/claude-code@2\.1\.328$/.source),
    );
  });

  test("a program that exits 127 at once is blocked with what to check, never restarted", async () => {
    const broken = writeTool("agent-cli", 'echo "agent-cli: 2: exec: agent-cli-real: not found" >&2\nexit 127');
    // Its folder lies in /tmp, the agent's own in the sandbox: shown, so the program itself runs there.
    org = createTestOrg({
      yaml: (name) => `name: ${name}\nruntimes:\n  broken: { command: [${broken}] }\nroles:\n`
        + `  researcher: { prompt: prompts/researcher.md, runtime: broken }\nsandbox: { read: ["${tools}"] }\n`,
    });
    expect(runOrg(["up", "--no-attach"], { cwd: org.dir }).code).toBe(0);
    const statusPath = join(org.dir, "state/agents/researcher-1/status.json");
    const read = () => JSON.parse(readFileSync(statusPath, "utf8")) as AgentStatus;
    const blocked = await pollUntil(() => (read().state === "blocked" ? read() : undefined), {
      timeoutMs: 30_000, intervalMs: 200, what: "researcher-1 blocked", explain: () => readFileSync(statusPath, "utf8"),
    });
    expect(blocked.reason).toBe(`exit 127 from ${broken} itself: a command it runs is not installed (a broken install `
      + `or wrapper) — run \`${broken} --version\` by hand to see what is missing, fix it, then restart researcher-1`);
    expect(blocked).toMatchObject({ restarts: 0, lastExit: { code: 127 } });
    // Blocked waits for a person: the next looks leave it as it is.
    await pollUntil(() => Date.now() - Date.parse(blocked.updatedAt) > 3000, { timeoutMs: 10_000, intervalMs: 200 });
    expect(read()).toMatchObject({ state: "blocked", restarts: 0 });
  }, 60_000);
});
