import { stripAnsi } from "../../ui/strip-ansi.js";
import { findPaneLog, readLogFrom, readLogSize } from "../../flows/views/pane-log.js";
import type { Io } from "../io.js";

/** `org logs <agent> [--follow]`: the agent's pane output as text, from state. */
export async function runLogs(
  opts: { root: string; agent: string; follow: boolean; lines: number }, io: Io,
): Promise<number> {
  const file = await findPaneLog(opts.root, opts.agent);
  const size = await readLogSize(file);
  const tail = await readLogFrom(file, Math.max(0, size - 256 * 1024));
  const lines = stripAnsi(tail).split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines.slice(-opts.lines)) io.out(line);
  if (!opts.follow) return 0;
  let offset = size;
  // Poll rather than watch: pipe-pane appends in bursts and a 200 ms cadence is plenty for a person.
  const stop = new Promise<void>((resolve) => process.once("SIGINT", resolve));
  for (let done = false; !done; ) {
    done = await Promise.race([
      stop.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200)),
    ]);
    const now = await readLogSize(file);
    if (now > offset) {
      process.stdout.write(stripAnsi(await readLogFrom(file, offset, now)));
      offset = now;
    }
  }
  return 0;
}
