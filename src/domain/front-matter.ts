// Messages, contracts, reviews and tasks are Markdown with a flat `key: value` front matter.
import { cleanText, formatJson } from "./safe-text.js";

export interface Field {
  value: string;
  /** 1-based line of the file. */
  line: number;
}

/** What is wrong with a file, at its 1-based line. */
export interface FileProblem {
  line: number;
  reason: string;
  fix: string;
}

export type ParsedFrontMatter =
  | { ok: true; fields: Map<string, Field>; body: string; bodyLine: number }
  | ({ ok: false } & FileProblem);

/** Split off the front matter; a file without one is all body. */
export function parseFrontMatter(text: string, hint: string): ParsedFrontMatter {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const fields = new Map<string, Field>();
  if (lines[0] !== "---") return { ok: true, fields, body: lines.join("\n"), bodyLine: 1 };
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line === "---") return { ok: true, fields, body: lines.slice(index + 1).join("\n"), bodyLine: index + 2 };
    if (line.trim() === "") continue;
    const match = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*))?$/.exec(line);
    const value = match ? unquote(match[2] ?? "") : undefined;
    if (!match || value === undefined) return {
      ok: false,
      line: index + 1,
      reason: `front matter line ${JSON.stringify(line)} is not "key: value"`,
      fix: `write it as key: value, e.g. ${hint}`,
    };
    if (fields.has(match[1]!)) return {
      ok: false,
      line: index + 1,
      reason: `front matter repeats "${match[1]}"`,
      fix: "keep one",
    };
    fields.set(match[1]!, { value, line: index + 1 });
  }
  return {
    ok: false,
    line: lines.length - (lines.at(-1) === "" ? 1 : 0),
    reason: "the front matter is never closed",
    fix: "end it with a line holding only ---",
  };
}

/**
 * Front matter in the given order, skipping undefined values, then the body with one trailing newline. The body is an
 * agent's text in a file people read: no escape or control character of it is written.
 */
export function formatFrontMatter(fields: [string, string | undefined][], body: string): string {
  const lines = fields.filter((field): field is [string, string] => field[1] !== undefined)
    .map(([key, value]) => `${key}: ${quoteValue(value)}`);
  return `---\n${lines.join("\n")}\n---\n\n${cleanText(body).replace(/^\n+/, "").replace(/\s+$/, "")}\n`;
}

/**
 * One front-matter value as written: plain when YAML and a person read it back the same;
 * anything else in JSON quotes.
 */
export function quoteValue(value: string): string {
  return /^[\w.:+-]+$/.test(value) ? value : formatJson(value, 0);
}

/** One front-matter value as read: plain, or JSON-quoted; undefined when the quotes do not parse. */
function unquote(raw: string): string | undefined {
  const value = raw.trim();
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
