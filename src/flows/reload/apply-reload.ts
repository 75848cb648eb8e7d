import { orgPaths } from "../../domain/paths.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";
import { assertDaemonAlive } from "../../adapters/daemon-client.js";
import { createWorld } from "../../adapters/real-world.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import type { MetaReply } from "./meta-edit.js";
import { submitMetaRequest, waitForMetaReply } from "./requests.js";
import { reloadWhenFree, type SettledOutcome } from "./reload-now.js";

/** What `org reload` did: a person's reload applied (or refused), or a meta agent's proposal as the daemon answered. */
export type ReloadReply = { kind: "reloaded"; outcome: SettledOutcome } | { kind: "proposed"; reply: MetaReply };

/** `org reload`: apply org.yaml and the prompts to the running org now; run by a meta agent, propose its copy. */
export async function applyReload(root: string): Promise<ReloadReply> {
  // The running org's agents, not org.yaml's: the file being reloaded may be the broken one.
  const caller = await findCaller(root, (await readOptionalRecord(root).catch(() => undefined))?.agents ?? []);
  if (caller.kind === "agent") return { kind: "proposed", reply: await proposeAsAgent(root, caller.agent) };
  const read = await readAndLoadConfig({ cwd: root });
  const outcome = await reloadWhenFree(createWorld(), { root, read, by: "org reload" }, "org reload");
  return { kind: "reloaded", outcome };
}

// The daemon applies it: restarting this very agent would otherwise kill the command mid-apply.
async function proposeAsAgent(root: string, agent: string): Promise<MetaReply> {
  const paths = orgPaths(root);
  await assertDaemonAlive(paths.daemon, "the org is not running — start it with `org up` (nothing changed)");
  const request = await submitMetaRequest(paths.state, agent, new Date());
  return waitForMetaReply(paths, request.id);
}
