// One agent's transcript, read as its CLI wrote it: a file the agent writes, so opened through no link and bounded.
import { join } from "node:path";
import { readLaunchSpec } from "../../domain/lifecycle/launch-file.js";
import type { AgentTrace, TraceEvent } from "../../domain/traces/events.js";
import { traceFormatOf, type TraceFormat } from "../../domain/traces/trace-formats.js";
import { mergeTimelines, parseJsonLines } from "../../domain/traces/timeline.js";
import { filesPort } from "../fs/files-port.js";
import { openUntrusted } from "../fs/untrusted.js";
import { describeError, HALF_LINE_STALE_MS, listTranscripts } from "../usage/jsonl.js";
import { readOpencodeTrace } from "./opencode-trace.js";

/** A transcript file is read up to this much, from its end: the latest experiments matter most. */
export const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024;

/** The timeline of `agent` from its CLI's own transcript under its config folder; never throws for what is in it. */
export async function readAgentTrace(state: string, agent: string, now = Date.now()): Promise<AgentTrace> {
  const spec = await readLaunchSpec(filesPort, state, agent);
  const never = `${agent} was never started by \`org up\` (no launch record), so its CLI wrote nothing yet`;
  if (!spec) return { kind: "none", why: never };
  const format = traceFormatOf(spec.runtime?.preset);
  if (format.kind === "none") return { kind: "none", why: format.why };
  const home = spec.runtime!.home;
  if (format.kind === "opencode-db") return readOpencodeTrace(join(home, format.file), home, format.cli);
  return readJsonlTrace(home, format, now);
}

async function readJsonlTrace(
  home: string, format: Extract<TraceFormat, { kind: "jsonl" }>, now: number,
): Promise<AgentTrace> {
  const listed = await listTranscripts(home, join(home, format.dir), format);
  if ("problem" in listed) return { kind: "read", cli: format.cli, events: [], problems: [listed.problem] };
  const problems = [...listed.problems];
  const lists: TraceEvent[][] = [];
  for (const file of listed.files) {
    const label = join(format.dir, file);
    const read = await readTail(home, join(home, format.dir, file))
      .catch((error: NodeJS.ErrnoException) => ({ problem: `cannot read ${label}: ${describeError(error)}` }));
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    const end = read.text.lastIndexOf("\n");
    const parsed = parseJsonLines(read.text.slice(0, end + 1), label);
    if (parsed.problem) problems.push(parsed.problem);
    const cut = `${label} is ${read.size} bytes: only its last ${MAX_TRANSCRIPT_BYTES} were read`;
    if (read.skipped > 0) problems.push(cut);
    // The CLI may be writing its last line now; one left half-written for a minute is a truncated file.
    const half = read.text.length - end - 1;
    const truncated = `${label}: truncated — it ends in a half-written line (${half} characters)`;
    if (half > 0 && now - read.mtimeMs >= HALF_LINE_STALE_MS) problems.push(truncated);
    const { events, known } = format.read(parsed.values);
    const lines = parsed.values.length;
    const foreign = `${label}: an unknown shape — none of its ${lines} lines is a ${format.cli} transcript line`;
    if (lines > 0 && known === 0) problems.push(foreign);
    lists.push(events);
  }
  return { kind: "read", cli: format.cli, events: mergeTimelines(lists), problems };
}

/** A file's text, or its last MAX_TRANSCRIPT_BYTES from the first whole line in them. */
async function readTail(
  top: string, path: string,
): Promise<{ text: string; size: number; skipped: number; mtimeMs: number }> {
  const handle = await openUntrusted(top, path);
  try {
    const { size, mtimeMs } = await handle.stat();
    const skipped = Math.max(0, size - MAX_TRANSCRIPT_BYTES);
    const buffer = Buffer.alloc(size - skipped);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, skipped);
    let text = buffer.toString("utf8", 0, bytesRead);
    if (skipped > 0) text = text.slice(text.indexOf("\n") + 1);
    return { text, size, skipped, mtimeMs };
  } finally {
    await handle.close();
  }
}


