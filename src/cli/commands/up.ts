import { orgPaths } from "../../org/paths.js";
import { readSnapshot, readStatuses } from "../../org/status.js";
import { upOrg } from "../../org/up.js";
import { runInteractive } from "../../adapters/process.js";
import { createWorld } from "../../adapters/world.js";
import { renderStatus } from "../../ui/status-table.js";
import type { Io } from "../io.js";
import { readAndLoadConfig } from "./validate.js";

const READY_TIMEOUT_MS = 15_000;

/** `org up`: plan, worktrees, leases, the grid; attach when a person is at a terminal. */
export async function runUp(opts: { root: string; attach: boolean }, io: Io): Promise<number> {
  const read = await readAndLoadConfig({ cwd: opts.root });
  if ("problems" in read) {
    for (const problem of read.problems) io.err(problem);
    return 1;
  }
  const world = createWorld();
  const result = await upOrg(world, read.loaded);
  if (result.kind === "already-running") {
    io.out(result.reason);
  } else {
    for (const warning of result.warnings) io.err(`warning: ${warning}`);
    const snapshot = await waitUntilStarted(world, opts.root, result.record.agents.map((agent) => agent.name));
    io.out(renderStatus(snapshot));
  }
  const attach = world.tmux(result.record.socket, result.record.session).attachArgv();
  if (opts.attach && process.stdin.isTTY && process.stdout.isTTY && !process.env.TMUX) {
    return runInteractive(attach);
  }
  io.out(`attach: org attach [agent]   (or: ${attach.join(" ")})`);
  return 0;
}

// Supervisors report within milliseconds; waiting makes `org up` return an org that is really up.
// Only status files are polled: a full snapshot per poll would spawn tmux and git and slow the very start it waits for.
async function waitUntilStarted(world: ReturnType<typeof createWorld>, root: string, agents: string[]) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const statuses = await readStatuses(world, orgPaths(root).state, agents);
    if ([...statuses.values()].every((status) => status && status.state !== "starting") || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return readSnapshot(world, root);
}
