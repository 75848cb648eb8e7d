// state/programs/history.jsonl: each time a program starts running (`org up`, an applied change) and each `org down`.

/** A program began running (by `org up`, a reload, a meta proposal, a restore), or the org stopped. */
export type ProgramEvent =
  | { at: string; kind: "use"; version: string; by: string }
  | { at: string; kind: "stop"; by: string };

/** One stretch of time a program ran: from its use to the next event; no end while it still runs. */
export interface ProgramSpan {
  version: string;
  from: number;
  to: number | undefined;
}

export function formatProgramEvent(event: ProgramEvent): string {
  return JSON.stringify(event);
}

/** The events in file order; a line cut short by a kill, or not one of ours, is skipped. */
export function parseProgramEvents(text: string): ProgramEvent[] {
  return text.split("\n").flatMap((line) => {
    if (!line.trim()) return [];
    try {
      const event = JSON.parse(line) as Partial<ProgramEvent>;
      if (typeof event.at !== "string" || Number.isNaN(Date.parse(event.at)) || typeof event.by !== "string") return [];
      if (event.kind === "use" && typeof event.version === "string") return [event as ProgramEvent];
      return event.kind === "stop" ? [event as ProgramEvent] : [];
    } catch {
      return [];
    }
  });
}

/** The program that ran last: what a change is compared with, even across `org down`. */
export function findLastProgram(events: readonly ProgramEvent[]): string | undefined {
  const uses = events.filter((event) => event.kind === "use");
  return uses[uses.length - 1]?.version;
}

/** The program that was running at `time` (an experiment's submit); undefined before the first. */
export function findProgramAt(events: readonly ProgramEvent[], time: string): string | undefined {
  const at = Date.parse(time);
  if (Number.isNaN(at)) return undefined;
  let found: string | undefined;
  for (const event of events) if (event.kind === "use" && Date.parse(event.at) <= at) found = event.version;
  return found;
}

/** Every stretch each program ran, in order; the org being down between a stop and the next use belongs to none. */
export function listSpans(events: readonly ProgramEvent[]): ProgramSpan[] {
  const spans: ProgramSpan[] = [];
  events.forEach((event, index) => {
    if (event.kind !== "use") return;
    const next = events[index + 1];
    spans.push({ version: event.version, from: Date.parse(event.at), to: next ? Date.parse(next.at) : undefined });
  });
  return spans;
}
