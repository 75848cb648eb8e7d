// The outbox between a sandboxed agent's `org` (the shim) and the daemon: the real shim script, the real adapter, no daemon.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { renderOrgShim } from "../src/org/sandbox/shim.js";
import { checkOutboxCommand, runOutboxCommand, takeOutboxRequests, type OutboxEntry } from "../src/adapters/store/outbox.js";
import { isOutboxEvent } from "../src/daemon/outbox-broker.js";
import { prepareSandboxGit } from "../src/adapters/git/sandbox-git.js";
import { createRepo, git, makeTempDir } from "./helpers/temp-repo.js";
import { pollUntil } from "./helpers/poll.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = makeTempDir("org-outbox-");
  dirs.push(dir);
  return dir;
};
const children = { announce: () => ({ env: {}, started: () => undefined, ended: () => undefined }) };

/** The shim run as a sandboxed agent's `org`, its output and exit status once it ends. */
function runShim(outbox: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = join(outbox, "..");
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  const child = spawn(join(dir, "org"), args, { cwd: dir, env: { ...process.env, ORG_OUTBOX: outbox, ORG_AGENT: "a-1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the outbox", () => {
  test("a request's output comes back on the shim's stdout and stderr with its exit status, and the shim leaves no file behind", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const ended = runShim(outbox, ["status", "--all"]);
    const [entry] = await pollUntil(() => takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)), { what: "the shim's request" });
    expect(entry!.argv).toEqual(["status", "--all"]);
    expect(entry!.claimed).toBe("a-1");
    await runOutboxCommand(entry!, ["/bin/sh", "-c", 'echo "out $*"; echo err >&2; exit 3', "sh", ...entry!.argv], { cwd: entry!.cwd, env: {}, children, agent: "a-1" });
    expect(await ended).toEqual({ code: 3, stdout: "out status --all\n", stderr: "err\n" });
    await pollUntil(() => readdirSync(outbox).length === 0, { what: "the request's files to go" });
    // Its files gone with the shim, the daemon counts the command as over, not given up.
    expect(await checkOutboxCommand(entry!)).toBe("done");
  });

  test("a command whose shim died with its files in place was given up; one still awaited runs", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const entry: OutboxEntry = { base: join(outbox, "1"), argv: ["wait"], cwd: outbox, claimed: "", shimPid: 2 ** 22 + 7, local: true };
    writeFileSync(`${entry.base}.argv`, "wait\0");
    expect(await checkOutboxCommand(entry)).toBe("abandoned");
    expect(await checkOutboxCommand({ ...entry, shimPid: process.pid })).toBe("running");
    writeFileSync(`${entry.base}.status`, "0\n");
    expect(await checkOutboxCommand(entry)).toBe("done");
  });

  test("only a new request or a cancel wakes the broker: the shim's other files and a command's output wait for its period", () => {
    expect(["1.ready", "1.cancel", undefined].map(isOutboxEvent)).toEqual([true, true, true]);
    expect(["1.argv", "1.cwd", "1.agent", "1.out", "1.err", "1.taken", "1.status"].map(isOutboxEvent)).toEqual(Array(7).fill(false));
  });
});

describe("the repo readied for the sandbox", () => {
  test("best becomes a symbolic ref to refs/frontier/<org>, a best branch made before it (even packed) moving there first", async () => {
    const repo = createRepo({ "a.txt": "1\n" }, tempDir());
    const fresh = await prepareSandboxGit(repo, "t");
    expect(fresh.common).toBe(join(repo, ".git"));
    expect(readFileSync(join(repo, ".git", "refs", "heads", "org", "t", "best"), "utf8")).toBe("ref: refs/frontier/t\n");
    expect(existsSync(join(repo, ".git", "logs", "refs", "heads", "org", "t"))).toBe(true);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    git(repo, ["branch", "org/u/best", head]);
    git(repo, ["pack-refs", "--all"]);
    await prepareSandboxGit(repo, "u");
    expect(git(repo, ["symbolic-ref", "refs/heads/org/u/best"]).trim()).toBe("refs/frontier/u");
    expect(git(repo, ["rev-parse", "refs/frontier/u"]).trim()).toBe(head);
    git(repo, ["worktree", "add", "-q", join(repo, "w"), "-b", "w"]);
    expect(await fresh.findWorktreeDir(join(repo, "w"), "w")).toBe(join(repo, ".git", "worktrees", "w"));
    expect(readFileSync(join(repo, ".git", "worktrees", "w", "config.worktree"), "utf8")).toBe("");
  });
});
