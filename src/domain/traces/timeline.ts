// Lines of a transcript file into JSON values, and files into one timeline.
import type { TraceEvent } from "./events.js";

/** The JSON value of each whole line; a line that is not JSON is a problem, named by file and line. */
export function parseJsonLines(text: string, label: string): { values: unknown[]; problem?: string } {
  const values: unknown[] = [];
  let problem: string | undefined;
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      const shown = `${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? "…" : ""}`;
      problem ??= `${label}:${index + 1}: a line that is not JSON (${shown})`;
    }
  }
  return { values, ...(problem ? { problem } : {}) };
}

/**
 * Several files' events as one timeline by time, each file's own order kept (a CLI's lines are not always in time
 * order): sessions after a restart, and subagents' conversations beside the main one.
 */
export function mergeTimelines(lists: readonly (readonly TraceEvent[])[]): TraceEvent[] {
  const queues = lists.filter((list) => list.length > 0).map((list) => ({ list, next: 0 }));
  const merged: TraceEvent[] = [];
  for (;;) {
    let pick: (typeof queues)[number] | undefined;
    for (const queue of queues) {
      if (queue.next >= queue.list.length) continue;
      if (!pick || queue.list[queue.next]!.at < pick.list[pick.next]!.at) pick = queue;
    }
    if (!pick) return merged;
    merged.push(pick.list[pick.next++]!);
  }
}
