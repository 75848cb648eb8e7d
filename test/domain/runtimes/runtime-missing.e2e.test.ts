import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { git } from "../../helpers/temp-repo.js";
import { createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

describe("a runtime program that is not installed", () => {
  let org: TestOrg | undefined;
  afterEach(() => teardownOrg(org));

  test("org up refuses with the install command and changes nothing", () => {
    org = createTestOrg({
      yaml: (name) => `name: ${name}\nruntimes:\n  cx:\n    preset: codex\n  mine:\n    preset: claude\n`
        + `    program: ./tools/claude\nroles:\n  researcher:\n    prompt: prompts/researcher.md\n    runtime: cx\n`
        + `  chief:\n    prompt: prompts/researcher.md\n    runtime: mine\n`,
    });
    const branchesBefore = git(org.dir, ["branch", "--list"]);
    // A PATH with node's folder and the system's, where no codex lives.
    const result = runOrg(["up", "--no-attach"], {
      cwd: org.dir,
      env: { PATH: `${join(process.execPath, "..")}:/usr/bin:/bin` },
    });
    expect(result.stderr.trim().split("\n")).toEqual([
      'runtimes.cx: program "codex" is not installed (not on PATH) — install it: npm install -g @openai/codex; '
        + 'or set runtimes.cx.program to its path',
      'runtimes.mine: program "./tools/claude" is not installed (not on PATH) — '
        + 'install it: npm install -g @anthropic-ai/claude-code; or set runtimes.mine.program to its path',
    ]);
    expect(result.code).toBe(1);
    expect(existsSync(join(org.dir, "state"))).toBe(false);
    expect(existsSync(join(org.dir, "worktrees"))).toBe(false);
    expect(git(org.dir, ["branch", "--list"])).toBe(branchesBefore);
    expect(tmux(org.socket, ["has-session"]).code).not.toBe(0);
  });
});
