import { dirname } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { agentPaths, orgPaths } from "../../domain/paths.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { openUntrusted } from "../../adapters/fs/untrusted.js";

/** The pane log `org logs <agent>` reads (daemon: the daemon's log), checked to be no link; unknown names refused. */
export async function findPaneLog(root: string, agent: string): Promise<string> {
  const record = await readRecord(root);
  const state = orgPaths(root).state;
  const names = ["daemon", ...record.agents.map((candidate) => candidate.name)];
  if (!names.includes(agent)) {
    throw new OrgError(`no agent named "${agent}" — choose one of: ${names.join(", ")}`, "unknown-agent");
  }
  const file = agent === "daemon" ? `${state}/daemon.log` : agentPaths(state, agent).paneLog;
  await checkLog(file);
  return file;
}

/** The log's size in bytes; 0 while it is missing. */
export async function readLogSize(file: string): Promise<number> {
  const handle = await openLog(file);
  if (!handle) return 0;
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** The log's bytes from `start` to `end` (default: its end), as text. */
export async function readLogFrom(file: string, start: number, end?: number): Promise<string> {
  const handle = await openLog(file);
  if (!handle) return "";
  try {
    const length = (end ?? (await handle.stat()).size) - start;
    if (length <= 0) return "";
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, start);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}

// An agent's org logs runs outside its sandbox: a link at pane.log (an older org let agents make one) shows nothing.
async function openLog(file: string) {
  return openUntrusted(dirname(file), file).catch(() => undefined);
}

async function checkLog(file: string): Promise<void> {
  const handle = await openUntrusted(dirname(file), file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new OrgError(`${error.message} — \`org up\` makes it the pane's log again`, "pane-log");
  });
  await handle?.close();
}
