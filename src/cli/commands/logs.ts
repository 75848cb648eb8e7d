import { dirname } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { agentPaths, orgPaths } from "../../domain/paths.js";
import { readRecord } from "../../adapters/store/org-record.js";
import { stripAnsi } from "../../ui/strip-ansi.js";
import { openUntrusted } from "../../adapters/fs/untrusted.js";
import type { Io } from "../io.js";

/** `org logs <agent> [--follow]`: the agent's pane output as text, from state. */
export async function runLogs(opts: { root: string; agent: string; follow: boolean; lines: number }, io: Io): Promise<number> {
  const record = await readRecord(opts.root);
  const state = orgPaths(opts.root).state;
  const names = ["daemon", ...record.agents.map((agent) => agent.name)];
  if (!names.includes(opts.agent)) throw new OrgError(`no agent named "${opts.agent}" — choose one of: ${names.join(", ")}`, "unknown-agent");
  const file = opts.agent === "daemon" ? `${state}/daemon.log` : agentPaths(state, opts.agent).paneLog;
  await checkLog(file);
  const size = await sizeOf(file);
  const tail = await readFrom(file, Math.max(0, size - 256 * 1024));
  const lines = stripAnsi(tail).split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines.slice(-opts.lines)) io.out(line);
  if (!opts.follow) return 0;
  let offset = size;
  // Poll rather than watch: pipe-pane appends in bursts and a 200 ms cadence is plenty for a person.
  const stop = new Promise<void>((resolve) => process.once("SIGINT", resolve));
  for (let done = false; !done; ) {
    done = await Promise.race([stop.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200))]);
    const now = await sizeOf(file);
    if (now > offset) {
      process.stdout.write(stripAnsi(await readFrom(file, offset, now)));
      offset = now;
    }
  }
  return 0;
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

async function sizeOf(file: string): Promise<number> {
  const handle = await openLog(file);
  if (!handle) return 0;
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

async function readFrom(file: string, start: number, end?: number): Promise<string> {
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
