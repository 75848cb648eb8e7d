import { rm } from "node:fs/promises";
import { OrgError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import { describeAction } from "../../org/reconcile/index.js";
import { assertDaemonAlive, waitForAnswer } from "../../adapters/daemon-client.js";
import type { MetaReply } from "../../adapters/reload-meta.js";
import { replyFile, submitMetaRequest } from "../../adapters/reload-requests.js";
import { reloadOrg, type ReloadOutcome } from "../../adapters/reload.js";
import { createWorld } from "../../adapters/world.js";
import type { Io } from "../io.js";
import { readAndLoadConfig } from "./validate.js";

// The daemon applies saves within a second; `org reload` waits that long for its turn at the lock.
const LOCK_WAIT_MS = 15_000;

/** `org reload`: apply org.yaml and the prompts to the running org now; run by a meta agent, propose its copy. */
export async function runReload(opts: { root: string; agent?: string }, io: Io): Promise<number> {
  if (opts.agent) return proposeAsAgent(opts.root, opts.agent, io);
  const read = await readAndLoadConfig({ cwd: opts.root });
  const world = createWorld();
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const outcome = await reloadOrg(world, { root: opts.root, read, by: "org reload", apply: true });
    if (outcome.kind !== "busy") return printOutcome(outcome, io, true);
    if (Date.now() > deadline) throw new OrgError(`${outcome.reason} — wait for it to finish, then run \`org reload\` again`, "locked");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What `org plan` and `org reload` print; exit 1 when the edit is rejected. */
export function printOutcome(outcome: ReloadOutcome, io: Io, applying: boolean): number {
  switch (outcome.kind) {
    case "rejected":
      for (const problem of outcome.problems) io.err(problem);
      if (applying) io.err("nothing changed: the org runs as before");
      return 1;
    case "in-sync":
      io.out("nothing to do: the running org matches org.yaml");
      return 0;
    case "busy":
      io.err(outcome.reason);
      return 1;
    case "planned":
    case "applied": {
      for (const warning of outcome.warnings) io.err(`warning: ${warning}`);
      const count = outcome.actions.length;
      io.out(outcome.kind === "planned" ? `org plan: ${count} action${count === 1 ? "" : "s"}; \`org reload\` applies them` : `reloaded: ${count} action${count === 1 ? "" : "s"} applied`);
      for (const action of outcome.actions) io.out(`  ${describeAction(action)}`);
      return 0;
    }
  }
}

// The daemon applies it: restarting this very agent would otherwise kill the command mid-apply.
async function proposeAsAgent(root: string, agent: string, io: Io): Promise<number> {
  const paths = orgPaths(root);
  await assertDaemonAlive(paths.daemon, "the org is not running — start it with `org up` (nothing changed)");
  const request = await submitMetaRequest(paths.state, agent, new Date());
  const reply = await waitForAnswer<MetaReply>(replyFile(paths.state, request.id), paths.daemon);
  await rm(replyFile(paths.state, request.id), { force: true });
  const print = reply.outcome === "rejected" || reply.outcome === "busy" ? io.err : io.out;
  for (const line of reply.lines) print(line);
  if (reply.outcome === "rejected") io.err("nothing changed: the org runs as before; this attempt is in log.md");
  return reply.outcome === "rejected" || reply.outcome === "busy" ? 1 : 0;
}
