// state/journal.jsonl: the verifier's own record of every row, verdict and frontier move, each entry sealed to
// the one before.
import { createHash } from "node:crypto";
import { join } from "node:path";
import * as z from "zod";
import { FrontierSchema } from "./frontier.js";
import { compareCodeUnits } from "../code-unit-order.js";

/** The hash before the first entry. */
const ORIGIN = "0".repeat(64);

const RowPayload = z.object({
  agent: z.string(), commit: z.string(), request: z.string(), header: z.string(), row: z.string(),
});
const VerdictPayload = z.object({ id: z.string(), commit: z.string(), sha256: z.string() });
// half "b": program B's own frontier during an A/B run (`org up --ab`); absent: the org's.
const FrontierPayload = FrontierSchema;
// What the org held when the journal began: the rows before it are legacy, and the frontier then is the one to guard.
const GenesisPayload = z.object({
  results: z.object({ lines: z.number().int().min(0), sha256: z.string() }), frontier: FrontierPayload.nullable(),
});

const Sealed = { seq: z.number().int().min(0), time: z.string(), prev: z.string(), hash: z.string() };
const EntrySchema = z.discriminatedUnion("kind", [
  z.object({ ...Sealed, kind: z.literal("genesis"), payload: GenesisPayload }),
  z.object({ ...Sealed, kind: z.literal("row"), payload: RowPayload }),
  z.object({ ...Sealed, kind: z.literal("verdict"), payload: VerdictPayload }),
  z.object({ ...Sealed, kind: z.literal("frontier"), payload: FrontierPayload }),
]);

export type JournalEntry = z.infer<typeof EntrySchema>;
export type RowRecord = z.infer<typeof RowPayload>;
export type FrontierRecord = z.infer<typeof FrontierPayload>;
/** An entry before it is sealed: what the verifier asks to record. */
export type JournalDraft = { [K in JournalEntry["kind"]]: {
  kind: K; payload: Extract<JournalEntry, { kind: K }>["payload"];
} }[JournalEntry["kind"]];

/**
 * The entries whose chain holds, the text they were read from, a torn last line (a write cut by a kill), and where
 * the chain breaks.
 */
export interface ChainRead {
  entries: JournalEntry[];
  /** The text of the entries that hold, each line with its newline. */
  text: string;
  torn: boolean;
  broken?: { line: number; reason: string };
}

export function journalPath(state: string): string {
  return join(state, "journal.jsonl");
}

/** The next entry after `head`: seq + 1, prev = head's hash, hash = sha256(prev + canonical entry). */
export function sealEntry(head: JournalEntry | undefined, draft: JournalDraft, now: Date): JournalEntry {
  const body = { seq: head ? head.seq + 1 : 0, time: now.toISOString(), ...draft, prev: head?.hash ?? ORIGIN };
  return { ...body, hash: hashBody(body) } as JournalEntry;
}

/** One entry as its line in the file, without the newline. */
export function formatEntry(entry: JournalEntry): string {
  return canonicalJson(entry);
}

/** The chain as far as it holds: each line parses, follows the one before (seq, prev) and hashes to its own hash. */
export function readChain(text: string): ChainRead {
  const lines = text.split("\n");
  const last = lines.pop()!;
  const entries: JournalEntry[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const problem = checkLine(line, entries.at(-1));
    if (typeof problem === "string") return {
      entries, text: text.slice(0, length), torn: false, broken: { line: index + 1, reason: problem },
    };
    entries.push(problem);
    length += line.length + 1;
  }
  return { entries, text: text.slice(0, length), torn: last !== "" };
}

/** sha256 of some text, hex. */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The frontier the journal last recorded: the latest move, else the one the org had when the journal began. */
export function findJournaledFrontier(entries: readonly JournalEntry[], half?: "b"): FrontierRecord | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.kind === "frontier" && entry.payload.half === half) return entry.payload;
    if (entry.kind === "genesis") return half ? undefined : (entry.payload.frontier ?? undefined);
  }
  return undefined;
}

function checkLine(line: string, previous: JournalEntry | undefined): JournalEntry | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return "not a JSON entry";
  }
  const entry = EntrySchema.safeParse(parsed);
  if (!entry.success) return "not a journal entry";
  const { hash, ...body } = entry.data;
  const seq = previous ? previous.seq + 1 : 0;
  if (body.seq !== seq) return `seq ${body.seq} where ${seq} was due (an entry removed or added)`;
  if (body.prev !== (previous?.hash ?? ORIGIN)) return `entry ${seq} does not follow the entry before it`;
  if (hashBody(body) !== hash) return `entry ${seq} was altered after it was sealed`;
  if (formatEntry(entry.data) !== line) return `entry ${seq} is not written as the verifier writes it`;
  return entry.data;
}

function hashBody(body: Omit<JournalEntry, "hash">): string {
  return hashText(body.prev + canonicalJson(body));
}

// Keys sorted at every depth: the same entry always hashes the same, whoever serializes it.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => compareCodeUnits(a, b));
    return `{${fields.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
