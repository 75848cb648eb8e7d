// The outbox between a sandboxed agent's `org` (the shim) and the daemon:
// the real shim script, the real adapter, no daemon.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { renderOrgShim } from "../../../src/domain/sandbox/shim.js";
import {
  checkOutboxCommand, closeOutboxRequest, refuseOutboxRequest, runOutboxCommand, stopOutboxCommand, takeOutboxRequests,
} from "../../../src/adapters/store/outbox.js";
import { isOutboxEvent } from "../../../src/daemon/outbox-broker.js";
import { prepareSandboxGit } from "../../../src/adapters/git/sandbox-git.js";
import { createRepo, git, makeTempDir } from "../../helpers/temp-repo.js";
import { pollUntil } from "../../helpers/poll.js";

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
function runShim(
  outbox: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnShim(outbox, args, env).ended;
}

function spawnShim(
  outbox: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; ended: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const dir = join(outbox, "..");
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  // Its own group, as in a pane: killing the group is the pane ending (the watchdog's sleep holds our pipes meanwhile).
  const child = spawn(join(dir, "org"), args, {
    cwd: dir,
    env: { ...process.env, ORG_OUTBOX: outbox, ORG_AGENT: "a-1", ...env },
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, ended: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))) };
}

describe("the outbox", () => {
  test("a request's output comes back on the shim's stdout and stderr with its exit status, "
    + "and the shim leaves no file behind", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const ended = runShim(outbox, ["status", "--all"]);
    const [entry] = await pollUntil(() =>
      takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)), {
      what: "the shim's request",
    });
    expect(entry!.argv).toEqual(["status", "--all"]);
    expect(entry!.claimed).toBe("a-1");
    const started = await runOutboxCommand(entry!, [
      "/bin/sh", "-c", 'echo "out $*"; echo err >&2; exit 3', "sh", ...entry!.argv,
    ], { cwd: entry!.cwd, env: {}, children, agent: "a-1" });
    expect(await ended).toEqual({ code: 3, stdout: "out status --all\n", stderr: "err\n" });
    await pollUntil(() => readdirSync(outbox).length === 0, { what: "the request's files to go" });
    // Its process group gone, the daemon counts the command as over, not given up.
    await pollUntil(() => checkOutboxCommand(entry!, started!.pid).then((state) => state === "done"), {
      what: "the command over",
    });
    await closeOutboxRequest(entry!, { files: false });
  });

  test("polled (Slurm), the output comes back through plain files of the daemon's own, "
    + "the status once it is whole", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const ended = runShim(outbox, ["status"], { ORG_OUTBOX_POLL: "1" });
    const [entry] = await pollUntil(() =>
      takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)), {
      what: "the shim's request",
    });
    expect(entry!.local).toBe(false);
    await runOutboxCommand(entry!, ["sh", "-c", "echo polled; echo oops >&2; exit 4"], {
      cwd: entry!.cwd, env: {}, children, agent: "a-1",
    });
    expect(await ended).toEqual({ code: 4, stdout: "polled\n", stderr: "oops\n" });
  });

  test("a command whose shim was killed is given up (the end of its .live, no pid), one still awaited runs, "
    + "and one whose group ended is done", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const shim = spawnShim(outbox, ["wait"]);
    const [entry] = await pollUntil(() =>
      takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)), {
      what: "the shim's request",
    });
    const started = await runOutboxCommand(entry!, ["sleep", "30"], {
      cwd: entry!.cwd, env: {}, children, agent: "a-1",
    });
    expect(await checkOutboxCommand(entry!, started!.pid)).toBe("running");
    process.kill(-shim.child.pid!, "SIGKILL");
    await pollUntil(() => checkOutboxCommand(entry!, started!.pid).then((state) => state === "abandoned"), {
      what: "the command given up",
    });
    await stopOutboxCommand(started!.pid);
    await pollUntil(() => checkOutboxCommand(entry!, started!.pid).then((state) => state === "done"), {
      what: "its group gone",
    });
    await closeOutboxRequest(entry!, { files: true });
    await shim.ended;
    expect(readdirSync(outbox)).toEqual([]);
  });

  test("a -f's file is read by the shim, as the agent may read it; a missing one is refused there, "
    + "with nothing left in the outbox", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    writeFileSync(join(outbox, "..", "note.md"), "# hello\n");
    const ended = runShim(outbox, ["send", "b-1", "--file", "note.md"]);
    const [entry] = await pollUntil(() =>
      takeOutboxRequests(outbox).then((taken) => (taken.length > 0 ? taken : undefined)), {
      what: "the shim's request",
    });
    expect(entry!.file?.toString()).toBe("# hello\n");
    const started = await runOutboxCommand(entry!, ["sh", "-c", 'cat "$1"; pwd', "sh", "note.md"], {
      cwd: entry!.cwd, env: {}, children, agent: "a-1", file: "note.md",
    });
    const { stdout } = await ended;
    expect(stdout).toMatch(/^# hello\n.*\/org-file-\w+\n$/);
    await closeOutboxRequest(entry!, { files: false, folder: started!.folder! });
    expect(existsSync(started!.folder!)).toBe(false);
    // The shim's watchdog removes the request's files as the shim ends, a moment after its output.
    await pollUntil(() => readdirSync(outbox).length === 0, { what: "the request's files to go" });
    expect(await runShim(outbox, ["task", "b-1", "-f", "missing.md"])).toEqual({
      code: 2, stdout: "",
      stderr: `org: cannot read missing.md in ${join(outbox, "..")}: give a readable file (nothing was done)\n`,
    });
    expect(readdirSync(outbox)).toEqual([]);
  });

  test("a command taken before the shim's readers are there waits for them, "
    + "and its output still comes back", async () => {
    const outbox = join(tempDir(), "outbox");
    mkdirSync(outbox);
    const base = join(outbox, "3");
    expect(spawnSync("mkfifo", [`${base}.out`, `${base}.err`, `${base}.live`]).status).toBe(0);
    const live = openSync(`${base}.live`, constants.O_RDWR);
    for (const [suffix, text] of [[".argv", "status\0"], [".cwd", outbox], [".ready", ""]]) writeFileSync(
      `${base}${suffix}`,
      text!,
    );
    const [entry] = await takeOutboxRequests(outbox);
    const started = runOutboxCommand(entry!, ["echo", "late"], { cwd: outbox, env: {}, children, agent: "a-1" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reader = spawn("sh", ["-c", 'cat "$1.err" >&2 & cat "$1.out"; wait; cat "$1.status"', "sh", base]);
    let output = "";
    reader.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => reader.on("close", resolve));
    expect(output).toBe("late\n0\n");
    await pollUntil(async () => (await checkOutboxCommand(entry!, (await started)!.pid)) === "done", {
      what: "the command over",
    });
    closeSync(live);
    await closeOutboxRequest(entry!, { files: true });
  });

  test("files the agent put in its outbox are never followed: a linked request is refused, "
    + "a linked .taken or .status is not written through", async () => {
    const dir = tempDir();
    const outbox = join(dir, "outbox");
    mkdirSync(outbox);
    writeFileSync(join(dir, "secret"), "status --all\0");
    symlinkSync(join(dir, "secret"), join(outbox, "7.argv"));
    writeFileSync(join(outbox, "7.cwd"), dir);
    writeFileSync(join(outbox, "7.ready"), "");
    writeFileSync(join(outbox, "7.out"), "");
    writeFileSync(join(outbox, "7.err"), "");
    const [entry] = await takeOutboxRequests(outbox);
    expect(entry!.problem).toBe("the request in your outbox is not as org's shim writes it (7.argv is a symbolic "
      + "link): run org as your PATH has it");
    writeFileSync(join(dir, "victim"), "kept\n");
    for (const name of ["8.taken", "9.status.tmp"]) symlinkSync(join(dir, "victim"), join(outbox, name));
    for (const id of ["8", "9"]) for (const suffix of [".argv", ".cwd", ".ready"]) writeFileSync(
      join(outbox, `${id}${suffix}`),
      suffix === ".cwd" ? dir : "status\0",
    );
    const taken = await takeOutboxRequests(outbox);
    expect(taken.map((request) => request.base)).toEqual([join(outbox, "9")]);
    await expect(refuseOutboxRequest(taken[0]!, "no")).rejects.toThrow(/EEXIST/);
    expect(readFileSync(join(dir, "victim"), "utf8")).toBe("kept\n");
  });

  test("only a new request or a cancel wakes the broker: the shim's other files and a command's "
    + "output wait for its period", () => {
    expect(["1.ready", "1.cancel", undefined].map(isOutboxEvent)).toEqual([true, true, true]);
    expect(["1.argv", "1.cwd", "1.agent", "1.out", "1.err", "1.taken", "1.status"].map(isOutboxEvent))
      .toEqual(Array(7).fill(false));
  });
});

describe("the repo readied for the sandbox", () => {
  test("best becomes a symbolic ref to refs/frontier/<org>, a best branch made before it (even "
    + "packed) moving there first", async () => {
    const repo = createRepo({ "a.txt": "1\n" }, tempDir());
    const fresh = await prepareSandboxGit(repo, "t");
    expect(fresh.common).toBe(join(repo, ".git"));
    expect(readFileSync(join(repo, ".git", "refs", "heads", "org", "t", "best"), "utf8"))
      .toBe("ref: refs/frontier/t\n");
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
