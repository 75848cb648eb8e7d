// Who runs the org in a red-team test: root (containers, CI, many GPU boxes) and an ordinary user. Every attack test
// runs once as each, since what bubblewrap grants, and so what an agent can try, differs between the two.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { ORG_BIN, type CliResult } from "../helpers/org-cli.js";
import { GIT_ENV } from "../helpers/temp-repo.js";

export interface Identity {
  name: "root" | "user";
  uid: number;
  gid: number;
  /** An empty home of its own, owned by it. */
  home: string;
  /** The argv prefix that runs a program as this identity: empty for the test process's own. */
  wrap: string[];
}

// An id no account uses, so nothing on the machine belongs to it but what a test hands over.
const USER_ID = 4242;
const self = process.getuid?.() ?? 0;
const asUser = ["setpriv", `--reuid=${USER_ID}`, `--regid=${USER_ID}`, "--clear-groups", "--"];

// A checkout in a folder only root may enter (a home of mode 0700) cannot run as the user: say so, run as root alone.
function reachesPackage(): boolean {
  const [program, ...args] = [
    ...asUser,
    process.execPath,
    "-e",
    `require("fs").accessSync(${JSON.stringify(ORG_BIN)}, 4)`,
  ];
  if (spawnSync(program!, args).status === 0) return true;
  process.stderr.write(
    `test/security: uid ${USER_ID} cannot read ${ORG_BIN} (a folder above it is closed to others): ` +
      `the red team runs as root only\n`,
  );
  return false;
}

function makeIdentity(name: Identity["name"], uid: number, wrap: string[]): Identity {
  const home = realpathSync(mkdtempSync(join(tmpdir(), `org-sec-${name}-`)));
  if (uid !== self) chownSync(home, uid, uid);
  process.once("exit", () => rmSync(home, { recursive: true, force: true }));
  return { name, uid, gid: uid, home, wrap };
}

/**
 * Root and an ordinary user. As root the user is uid 4242 through setpriv; as an ordinary user, root is that user
 * mapped to uid 0 in a user namespace (unshare -r), which is what a rootless container gives an agent.
 */
export const IDENTITIES: Identity[] = self === 0
  ? [makeIdentity("root", 0, []), ...(reachesPackage() ? [makeIdentity("user", USER_ID, asUser)] : [])]
  : [makeIdentity("root", self, ["unshare", "--map-root-user", "--"]), makeIdentity("user", self, [])];

/** The environment `who` runs with: the test's hermetic one, its own HOME and names, no tmux of the caller. */
export function envOf(who: Identity, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const user = who.name === "root" ? "root" : "orguser";
  return { ...process.env, HOME: who.home, USER: user, LOGNAME: user, TMUX: "", TMUX_PANE: "", ORG_ROOT: "", ...env };
}

/** Any program as `who`, its result as data. */
export function runAs(
  who: Identity,
  argv: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): CliResult {
  const [program, ...args] = [...who.wrap, ...argv];
  const result: SpawnSyncReturns<string> = spawnSync(program!, args, {
    cwd: options.cwd,
    env: envOf(who, options.env),
    encoding: "utf8",
    timeout: options.timeoutMs ?? 60_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return {
    code: result.status ?? -1,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? String(result.error ?? ""),
  };
}

/** The built CLI as `who`, as test/helpers/org-cli.ts runOrg runs it for the test's own identity. */
export function runOrgAs(
  who: Identity,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): CliResult {
  return runAs(who, [process.execPath, ORG_BIN, ...args], options);
}

/** `org up --no-attach` (and `args`) as `who`, which must start the org sandboxed. */
export function upSandboxedAs(
  who: Identity, dir: string, env: Record<string, string> = {}, args: string[] = [],
): CliResult {
  const up = runOrgAs(who, ["up", "--no-attach", ...args], { cwd: dir, env });
  expect(up.stderr).not.toContain("WITHOUT a sandbox");
  expect(up.code, up.stderr).toBe(0);
  return up;
}

/** git as `who`, with the tests' fixed identity; throws with git's stderr when it fails, as temp-repo's git does. */
export function gitAs(who: Identity, dir: string, args: string[]): string {
  const result = runAs(who, ["git", "-c", "commit.gpgsign=false", "-c", "gc.auto=0", ...args], {
    cwd: dir,
    env: GIT_ENV,
  });
  if (result.code !== 0)
    throw new Error(`git ${args.join(" ")} as ${who.name} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** A folder for the shell jobs of a jobs org's agents (jobsOrgYaml, runInPane), owned by `who`. */
export function makeJobsDirAs(who: Identity): string {
  const jobs = realpathSync(mkdtempSync(join(tmpdir(), "org-sec-jobs-")));
  handOver(who, jobs);
  return jobs;
}

/** Give a folder the test process made, and everything in it, to `who`; nothing to do for the test's own identity. */
export function handOver(who: Identity, path: string): void {
  if (who.uid === self) return;
  const walk = (at: string) => {
    chownSync(at, who.uid, who.gid);
    if (statSync(at).isDirectory()) for (const entry of readdirSync(at)) walk(join(at, entry));
  };
  walk(path);
}

export interface OrgAs {
  who: Identity;
  dir: string;
  name: string;
  socket: string;
}

/** tmux on the org's socket as its owner: a server of another uid is not reachable by the test's own tmux. */
export function tmuxAs(org: OrgAs, args: string[]): CliResult {
  return runAs(org.who, ["tmux", "-L", org.socket, ...args], { cwd: org.dir, timeoutMs: 10_000 });
}

/** Stop whatever a test left, as the org's owner: `org down`, then the tmux server, then the files. */
export function teardownOrgAs(org: OrgAs | undefined): void {
  if (!org) return;
  runOrgAs(org.who, ["down"], { cwd: org.dir });
  tmuxAs(org, ["kill-server"]);
  rmSync(org.dir, { recursive: true, force: true, maxRetries: 3 });
}
