import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfigProbe } from "../../../src/adapters/probes/config.js";
import type { Runner } from "../../../src/adapters/process.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

describe("the real config probe", () => {
  const probe = createConfigProbe();
  let repo: string;
  let plain: string;
  beforeAll(() => {
    repo = createRepo({ "train.py": "print('hi')\n" });
    git(repo, ["tag", "v1"]);
    plain = makeTempDir();
    mkdirSync(join(repo, "sub"));
  });
  afterAll(() => {
    removeDir(repo);
    removeDir(plain);
  });

  it("sees files and folders", async () => {
    expect(await probe.exists(join(repo, "train.py"))).toBe(true);
    expect(await probe.exists(join(repo, "nope.py"))).toBe(false);
  });

  it("tells a git work tree from a plain folder", async () => {
    expect(await probe.isGitRepo(repo)).toBe(true);
    expect(await probe.isGitRepo(join(repo, "sub"))).toBe(true);
    expect(await probe.isGitRepo(plain)).toBe(false);
    expect(await probe.isGitRepo(join(plain, "missing"))).toBe(false);
  });

  it("resolves branches, tags and shas to the full commit sha, and nothing else", async () => {
    const sha = git(repo, ["rev-parse", "HEAD"]).trim();
    expect(await probe.resolveCommit(repo, "main")).toBe(sha);
    expect(await probe.resolveCommit(repo, "v1")).toBe(sha);
    expect(await probe.resolveCommit(repo, sha.slice(0, 7))).toBe(sha);
    expect(await probe.resolveCommit(repo, "nope")).toBeNull();
    expect(await probe.resolveCommit(repo, "--all")).toBeNull();
    expect(await probe.resolveCommit(plain, "main")).toBeNull();
  });
});

describe("the config probe's git calls", () => {
  it("runs exactly these argv", async () => {
    const calls: { argv: string[]; cwd?: string }[] = [];
    const runner: Runner = {
      run: async (argv, opts) => {
        calls.push({ argv, cwd: opts?.cwd });
        return {
          argv,
          exitCode: 0,
          signal: null,
          stdout: argv.includes("--is-inside-work-tree") ? "true\n" : `${"a".repeat(40)}\n`,
          stderr: "",
          timedOut: false,
          durationMs: 1,
        };
      },
    };
    const probe = createConfigProbe(runner);
    expect(await probe.isGitRepo("/r")).toBe(true);
    expect(await probe.resolveCommit("/r", "main")).toBe("a".repeat(40));
    expect(calls).toEqual([
      { argv: ["git", "-C", "/r", "rev-parse", "--is-inside-work-tree"], cwd: undefined },
      { argv: ["git", "rev-parse", "--verify", "--quiet", "main^{commit}"], cwd: "/r" },
    ]);
  });
});
