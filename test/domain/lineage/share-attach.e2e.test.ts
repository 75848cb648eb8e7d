import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ORG_BIN, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import { bin, createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
share: [.venv, { path: data, mode: copy }, .env]
runtimes:
  idle: { command: ["${bin("forever")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: idle, count: 2 }
`;

let org: TestOrg | undefined;
let outer: string | undefined;
afterEach(() => {
  if (outer) tmux(outer, ["kill-server"]);
  outer = undefined;
  teardownOrg(org);
  org = undefined;
});

describe("shared paths and attaching", () => {
  test("untracked .venv is linked and data copied into every worktree, which stays clean", () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir } = org;
    writeFileSync(join(dir, ".gitignore"), ".venv/\ndata/\n");
    git(dir, ["add", ".gitignore"]);
    git(dir, ["commit", "-qm", "ignore"]);
    mkdirSync(join(dir, ".venv", "bin"), { recursive: true });
    writeFileSync(join(dir, ".venv", "bin", "python"), "#!/bin/sh\n");
    mkdirSync(join(dir, "data"));
    writeFileSync(join(dir, "data", "shard.bin"), "tokens");
    const up = runOrg(["up"], { cwd: dir });
    expect(up.code).toBe(0);
    for (const agent of ["researcher-1", "researcher-2"]) {
      const worktree = join(dir, "worktrees", agent);
      expect(readlinkSync(join(worktree, ".venv"))).toBe(join(dir, ".venv"));
      expect(lstatSync(join(worktree, "data")).isDirectory()).toBe(true);
      expect(readFileSync(join(worktree, "data", "shard.bin"), "utf8")).toBe("tokens");
      // .env does not exist in the repo: nothing is made up for it.
      expect(() => lstatSync(join(worktree, ".env"))).toThrow();
      expect(git(worktree, ["status", "--porcelain"]).trim()).toBe("");
    }
    expect(git(dir, ["status", "--porcelain"]).trim()).toBe("");
  });

  test("org attach <agent> takes a terminal to the grid with that agent's pane selected", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir, socket, name } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    outer = `${socket}-outer`;
    // A person's terminal, played by a pane of another tmux server.
    execFileSync("tmux", [
      "-L", outer, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-e", "TMUX=", "env", "-u", "TMUX",
      process.execPath, ORG_BIN, "-C", dir, "attach", "researcher-2",
    ]);
    await pollUntil(() => tmux(socket, ["list-clients", "-F", "#{client_tty}"]).out.trim() !== "", {
      what: "a client attached to the org's grid",
    });
    const active = tmux(socket, ["display-message", "-p", "-t", `org-${name}`, "#{@org_agent}"]).out.trim();
    expect(active).toBe("researcher-2");
    expect(runOrg(["attach", "nobody"], { cwd: dir }).stderr.trim()).toBe(
      'org: no agent named "nobody" — agents: researcher-1, researcher-2',
    );
  });
});
