// Killing an org's daemon for good: its keeper would bring it back, and it would bring back its keeper.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { findLeftovers } from "../faults/collect.js";
import { runOrg } from "./org-cli.js";
import { pollUntil } from "./poll.js";
import { isRunning } from "./processes.js";
import { bin } from "./test-org/index.js";

/** Every `org keeper --root <root>` process: the one in keeper.lock, and one still booting or about to give up. */
export function findKeepers(root: string): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return argv.includes("keeper") && argv.includes(root);
    } catch {
      return false;
    }
  });
}

/**
 * The daemon and every keeper dead at once, as an agent's `pkill node` would leave them: the daemon is frozen first,
 * so it starts no keeper while they die, then killed (its process group with `group`).
 */
export function killDaemonAndKeepers(root: string, daemon: number, opts: { group?: boolean } = {}): void {
  const target = opts.group ? -daemon : daemon;
  process.kill(target, "SIGSTOP");
  for (const keeper of findKeepers(root)) process.kill(keeper, "SIGKILL");
  process.kill(target, "SIGKILL");
}

// The runtime declares a secret: the daemon holds it for agents it restarts, and so must every daemon after it.
export const orgYaml = (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"], pass_env: [ORG_KEEPER_TEST_TOKEN] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }
`;
export const SECRET = { ORG_KEEPER_TEST_TOKEN: "tok-123" };

export const readJson = <T>(path: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
};

/** The daemon's pid once it has beaten, other than `not`. */
export function awaitDaemon(state: string, not?: number, timeoutMs = 10_000): Promise<number> {
  return pollUntil(() => {
    const beat = readJson<{ pid: number | null; heartbeatAt?: string }>(join(state, "daemon.json"));
    return beat?.pid && beat.pid !== not && beat.heartbeatAt && isRunning(beat.pid) ? beat.pid : undefined;
  }, { timeoutMs, intervalMs: 25, what: `a daemon${not ? ` other than ${not}` : ""} beating` });
}

/** The running keeper's pid, other than `not`. */
export function awaitKeeper(state: string, not?: number, timeoutMs = 10_000): Promise<number> {
  return pollUntil(() => {
    const pid = Number(
      existsSync(join(state, "keeper.lock")) ? readFileSync(join(state, "keeper.lock"), "utf8").trim() : "",
    );
    return pid && pid !== not && isRunning(pid) ? pid : undefined;
  }, { timeoutMs, what: `a keeper${not ? ` other than ${not}` : ""}` });
}

/** `org up` of an orgYaml org with `flags` and SECRET: the daemon's and the keeper's pids once both run. */
export async function upUntilKept(dir: string, flags: readonly string[]): Promise<{ daemon: number; keeper: number }> {
  expect(runOrg(["up", "--no-attach", ...flags], { cwd: dir, env: SECRET }).code).toBe(0);
  const state = join(dir, "state");
  return { daemon: await awaitDaemon(state), keeper: await awaitKeeper(state) };
}

/** Nothing of the org runs: a killed tmux server or pty host takes a moment to exit. */
export function awaitNothingLeft(dir: string, socket: string): Promise<boolean> {
  return pollUntil(() => findLeftovers(dir, socket).length === 0, {
    what: "nothing of the org left",
    explain: () => findLeftovers(dir, socket).join("\n"),
  });
}

export function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
}
