import { SAFE_NAME, SAFE_NAME_RULE } from "../config/index.js";
import { parseFrontMatter, quoteValue } from "../front-matter.js";
import { cleanText } from "../safe-text.js";

/** The front matter every message file starts with. */
export interface MessageHead {
  id: string;
  from: string;
  to: string;
  time: string;
  kind: string;
}

export interface Message extends MessageHead {
  body: string;
  /** Keys beyond the five, kept as written so later protocols (contracts, tasks) can add their own. */
  extra: Record<string, string>;
}

export type ParsedMessage = { ok: true; message: Message } | { ok: false; line: number; reason: string; fix: string };

const KEYS = ["id", "from", "to", "time", "kind"] as const;
const EXAMPLES: Record<(typeof KEYS)[number], string> = {
  id: "20260107-101502-123-0a1b2c3d",
  from: "chief-1",
  to: "junior-1",
  time: "2026-01-07T10:15:02.123Z",
  kind: "note",
};

/** Sortable by time, unique per send: 20260107-101502-123-0a1b2c3d (UTC, then 32 random bits). */
export const MESSAGE_ID = /^\d{8}-\d{6}-\d{3}-[0-9a-f]{8}$/;

export function newMessageId(now: Date, entropy: string): string {
  const [date, time] = now.toISOString().replace(/[-:]/g, "").split("T") as [string, string];
  return `${date}-${time.slice(0, 6)}-${time.slice(7, 10)}-${entropy}`;
}

/** A message file: front matter, a blank line, the body (no escapes: a person may `cat` it), one trailing newline. */
export function formatMessage(head: MessageHead, body: string, extra: Record<string, string> = {}): string {
  const fields = [...KEYS.map((key) => [key, head[key]] as const), ...Object.entries(extra)];
  const front = fields.map(([key, value]) => `${key}: ${quoteValue(value)}`).join("\n");
  return `---\n${front}\n---\n\n${cleanText(body).replace(/\s+$/, "")}\n`;
}

/** Parse a message file; what is wrong names the 1-based line it is on. */
export function parseMessage(text: string): ParsedMessage {
  const parsed = parseFrontMatter(text, "kind: note");
  if (!parsed.ok) return parsed;
  if (parsed.bodyLine === 1) return fail(
    1,
    "no front matter: the first line is not ---",
    "start the file with a line holding only ---, then id, from, to, time and kind, then ---",
  );
  const { fields } = parsed;
  for (const key of KEYS) {
    if (!fields.has(key)) return fail(
      parsed.bodyLine - 1,
      `front matter has no "${key}"`,
      `add ${key}: ${EXAMPLES[key]}`,
    );
  }
  const value = (key: (typeof KEYS)[number]) => fields.get(key)!;
  if (!MESSAGE_ID.test(value("id").value)) return fail(
    value("id").line,
    `id "${value("id").value}" is not a message id`,
    `ids look like ${EXAMPLES.id}`,
  );
  for (const key of ["from", "to", "kind"] as const) {
    if (!SAFE_NAME.test(value(key).value)) return fail(
      value(key).line,
      `${key} "${value(key).value}" is not a name`,
      `use ${SAFE_NAME_RULE}`,
    );
  }
  if (Number.isNaN(Date.parse(value("time").value))) return fail(
    value("time").line,
    `time "${value("time").value}" is not a date`,
    `write an ISO time such as ${EXAMPLES.time}`,
  );
  const head = Object.fromEntries(KEYS.map((key) => [key, value(key).value])) as unknown as MessageHead;
  const extra = Object.fromEntries([...fields].filter(([key]) => !(KEYS as readonly string[]).includes(key))
    .map(([key, field]) => [key, field.value]));
  return { ok: true, message: { ...head, body: parsed.body.replace(/^\n/, ""), extra } };
}

function fail(line: number, reason: string, fix: string): ParsedMessage {
  return { ok: false, line, reason, fix };
}
