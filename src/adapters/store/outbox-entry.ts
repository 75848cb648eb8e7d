import { constants } from "node:fs";
import { realpath, type FileHandle } from "node:fs/promises";
import { openOutboxFile, readOutboxFile } from "./outbox-files.js";

// What a request's files may weigh: an argv, a folder, a name, and the file a -f names (a message, a checklist).
const LIMITS = { argv: 256 * 1024, cwd: 4096, agent: 1024, file: 1024 * 1024 };

/** A request as the shim left it: argv, working folder (symlinks resolved), and what keeps it alive. */
export interface OutboxEntry {
  /** The path of its files but for the suffix: <outbox>/<id>. */
  base: string;
  argv: string[];
  cwd: string;
  /** Whom the caller's $ORG_AGENT named ("" when unset): a claim, checked against the outbox's agent by the command. */
  claimed: string;
  /** The content of the file its -f names, as the shim read it inside the sandbox. */
  file?: Buffer;
  /** Its output goes through FIFOs: the shim runs on this host (not a Slurm node) and holds <id>.live open. */
  local: boolean;
  /** Our reading end of <id>.live: its end of file is the shim's (killed, or its pane ended), whatever its pid. */
  live?: FileHandle;
  /** Why its files cannot be taken as a request (a link, a FIFO, too large): it is refused with that. */
  problem?: string;
}

/** The request at <outbox>/<id>: its files read as the shim wrote them, or why they cannot be taken as one. */
export async function readEntry(base: string, local: boolean, withFile: boolean): Promise<OutboxEntry> {
  const entry: OutboxEntry = { base, argv: [], cwd: "/", claimed: "", local };
  try {
    const [argv, cwd, claimed, file] = await Promise.all([
      readOutboxFile(`${base}.argv`, LIMITS.argv),
      readOutboxFile(`${base}.cwd`, LIMITS.cwd),
      readOutboxFile(`${base}.agent`, LIMITS.agent).catch(() => Buffer.alloc(0)),
      withFile ? readOutboxFile(`${base}.file`, LIMITS.file) : undefined,
    ]);
    entry.argv = argv.toString("utf8").split("\0").slice(0, -1);
    entry.cwd = await resolvePath(cwd.toString("utf8").trim());
    entry.claimed = claimed.toString("utf8");
    if (file) entry.file = file;
    if (local) entry.live = await openOutboxFile(`${base}.live`, constants.O_RDONLY | constants.O_NONBLOCK, "fifo");
  } catch (error) {
    const why = (error as Error).message;
    entry.problem = `the request in your outbox is not as org's shim writes it (${why}): run org as your PATH has it`;
  }
  return entry;
}

/** `path` with symlinks resolved, or as given when it does not resolve. */
function resolvePath(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
