// Pane text made one column per character. blessed's fullUnicode mode measures every character and cost
// most of the dashboard's CPU (bench/watch.mjs); without it, a wide or astral character would shift the
// borders, so each becomes "?" and zero-width marks are dropped before blessed sees the text.
import { WIDE, within, ZERO_WIDTH } from "./text-width.js";

/** `text` with every character one terminal column wide: wide and astral ones as "?", zero-width ones dropped. */
export function narrowText(text: string): string {
  // Plain ASCII and Latin text, the usual case, needs no work.
  if (!/[^\u0000-\u02ff]/.test(text)) return text;
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (within(code, ZERO_WIDTH)) continue;
    out += code > 0xffff || within(code, WIDE) ? "?" : char;
  }
  return out;
}
