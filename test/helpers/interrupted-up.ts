import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { findLeftovers } from "../faults/collect.js";
import { ORG_BIN, runOrg, type CliResult } from "./org-cli.js";
import { pollUntil } from "./poll.js";

export const ROLLED_BACK = "rolled back, nothing left running";
export const LEFT_UP = "after the grid started: the org is up (2 agents) — `org status` shows it, `org down` stops it";

/** No tmux server on the org's socket, no process in or naming its folder (daemon, keeper, agents, pty host). */
export async function expectNothingLeft(dir: string, socket: string): Promise<void> {
  // Processes end a moment after their group is killed: polled, never slept on.
  await pollUntil(() => findLeftovers(dir, socket).length === 0, {
    timeoutMs: 5000, what: "nothing of the org left", explain: () => findLeftovers(dir, socket).join("\n"),
  });
}

/** `org down` succeeds, quietly on stderr, and leaves nothing. */
export function expectDown(dir: string, socket: string): Promise<void> {
  const down = runOrg(["down"], { cwd: dir });
  expect([down.code, down.stderr]).toEqual([0, ""]);
  return expectNothingLeft(dir, socket);
}

/**
 * `org up` given a person's Ctrl-C `delayMs` after it took state/up.lock (its work begins; node's start-up before
 * it varies with the machine's load): SIGINT to its whole process group, git and tmux clients too.
 */
export function upInterruptedAfter(dir: string, delayMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, TMUX: "", TMUX_PANE: "", ORG_ROOT: "" };
    const child = spawn(process.execPath, [ORG_BIN, "up", "--no-attach"], {
      cwd: dir,
      detached: true,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    let timer: NodeJS.Timeout | undefined;
    const interrupt = () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGINT");
    };
    const watch = setInterval(() => {
      if (!existsSync(join(dir, "state/up.lock"))) return;
      clearInterval(watch);
      timer = setTimeout(interrupt, delayMs);
    }, 5);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(watch);
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
