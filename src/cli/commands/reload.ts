import { rm } from "node:fs/promises";
import { OrgError } from "../../org/errors.js";
import { orgPaths } from "../../org/paths.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { assertDaemonAlive, waitForAnswer } from "../../adapters/daemon-client.js";
import type { MetaReply } from "../../daemon/reload/meta.js";
import { replyFile, submitMetaRequest } from "../../daemon/reload/requests.js";
import { reloadOrg } from "../../daemon/reload/reload-org.js";
import { createWorld } from "../../adapters/world.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import type { Io } from "../io.js";
import { printOutcome } from "../shared.js";

// The daemon applies saves within a second; `org reload` waits that long for its turn at the lock.
const LOCK_WAIT_MS = 15_000;

/** `org reload`: apply org.yaml and the prompts to the running org now; run by a meta agent, propose its copy. */
export async function runReload(opts: { root: string }, io: Io): Promise<number> {
  // The running org's agents, not org.yaml's: the file being reloaded may be the broken one.
  const caller = await findCaller(opts.root, (await readOptionalRecord(opts.root).catch(() => undefined))?.agents ?? []);
  if (caller.kind === "agent") return proposeAsAgent(opts.root, caller.agent, io);
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
