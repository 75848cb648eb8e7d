import * as z from "zod";

// Names become branch, tmux and file names: keep them to a safe alphabet.
// Spelled without the i flag because JSON Schema patterns carry no flags.
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const SAFE_NAME_RULE = "1-40 letters, digits, '-' or '_', starting with a letter or digit";
// Custom messages are noun phrases: messages.ts prints "<path> must be <message>, got <value>".
export const name = () => z.string().regex(SAFE_NAME, { message: SAFE_NAME_RULE });

export const argv = z.array(z.string().min(1)).min(1);

/** Why `name` is not a safe name (which characters), and a safe spelling of it. */
export function explainUnsafeName(what: string, name: string): { message: string; fix: string } {
  const bad = [...new Set([...name].filter((char) => !/[A-Za-z0-9_-]/.test(char)))];
  const show = (char: string) =>
    char === " " ? "a space" : /[\x00-\x1f\x7f]/.test(char) ? JSON.stringify(char) : `"${char}"`;
  const shown = bad.map(show);
  const reason =
    name.length === 0 ? "is empty"
    : bad.length > 0 ? `contains ${shown.join(", ")}`
    : !/^[A-Za-z0-9]/.test(name) ? `starts with "${name[0]}"`
    : `is ${name.length} characters long`;
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[-_]+/, "").slice(0, 40).replace(/-+$/, "");
  const suggestion = safe && safe !== name ? `, e.g. "${safe}"` : "";
  return { message: `${what} "${name}" ${reason}`, fix: `use ${SAFE_NAME_RULE}${suggestion}` };
}
