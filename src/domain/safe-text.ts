// Text an agent wrote, made safe for a person's terminal and for the files people `cat`: no escape sequence, no control
// character, no bidi override survives. Pure, in org, so every layer that prints or writes agent text may use it.

// Whole sequences, payload included: CSI (ESC [ or C1 0x9b); the string commands OSC, DCS, SOS, PM and APC
// (ESC ] P X ^ _, or C1 0x9d 0x90 0x98 0x9e 0x9f) up to BEL, ST or the end; any other escape (ESC, its intermediates
// and final).
const SEQUENCES = new RegExp(
  [
    "(?:\\x1b\\[|\\x9b)[0-?]*[ -/]*[@-~]",
    "(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[^]*?(?:\\x07|\\x1b\\\\|\\x9c|$)",
    "\\x1b[ -/]*[0-~]?",
  ].join("|"),
  "g",
);

// C0 but tab and newline, DEL, C1, and the bidi embeddings, overrides and isolates that make text read otherwise.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

// What breaks a line: a one-line field (a description, a note, a TSV cell) must stay one line.
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

// What JSON.stringify leaves raw but a terminal acts on; as \u escapes the JSON still parses to the same strings.
const JSON_UNSAFE = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Multi-line text (a message body, a log entry's body): newlines and tabs kept, \r and the rest dropped. */
export function cleanText(text: string): string {
  return dropEscapes(text).replace(CONTROLS, "");
}

/** One-line text: as cleanText, and each run of line breaks and tabs is one space. */
export function cleanLine(text: string): string {
  return cleanText(dropEscapes(text).replace(LINE_BREAKS, " "));
}

/** Only the escape sequences gone, payloads included; lone controls stay (a pane log's \r still overwrites). */
export function dropEscapes(text: string): string {
  return text.replace(SEQUENCES, "");
}

/** JSON for a terminal: JSON.stringify's, with C1, bidi and line separators escaped too; it parses to the original. */
export function formatJson(value: unknown, indent = 2): string {
  const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  return JSON.stringify(value, null, indent).replace(JSON_UNSAFE, escape);
}
