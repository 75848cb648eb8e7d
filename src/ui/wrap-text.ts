// Prose fitted to a terminal: footnotes, warnings and titles broken at spaces, never through a word that fits.
import { breakToWidth, cutToWidth, measureWidth } from "./text-width.js";

/** Continuation lines of a wrapped note go this much further in than its first line, so each note reads as one. */
const HANGING = "  ";

/**
 * `parts` packed greedily into lines of at most `width` columns (`rest` after the first line), a space between parts
 * on a line; a part too wide for a line goes on at its own spaces, then, a word too wide, at characters.
 */
export function wrapParts(parts: string[], width: number, rest = width): string[] {
  const lines: string[] = [];
  let line = "";
  const room = () => (lines.length === 0 ? width : rest);
  const place = (piece: string) => {
    if (line === "") line = piece;
    else if (measureWidth(line) + 1 + measureWidth(piece) <= room()) line = `${line} ${piece}`;
    else {
      lines.push(line);
      line = piece;
    }
  };
  for (const part of parts) {
    if (measureWidth(part) <= Math.min(width, rest)) place(part);
    else {
      const words = part.split(" ").filter((one) => one !== "");
      for (const word of words) breakToWidth(word, Math.min(width, rest)).forEach(place);
    }
  }
  return [...lines, line];
}

/** One line of prose in lines of at most `width` columns: its indent kept, continuation lines indented further. */
export function wrapLine(text: string, width: number): string[] {
  if (measureWidth(text) <= width) return [text];
  const indent = /^ */.exec(text)![0];
  const words = text.slice(indent.length).split(" ").filter((word) => word !== "");
  // A terminal narrower than the indent still gets every word, a few columns a line (then cut to its width).
  const first = Math.max(width - indent.length, 8);
  const [head = "", ...tail] = wrapParts(words, first, Math.max(first - HANGING.length, 8));
  return [`${indent}${head}`, ...tail.map((line) => `${indent}${HANGING}${line}`)].map((line) =>
    cutToWidth(line, width));
}

/** Text, line by line, wrapped to `width`; with no width (a pipe, `--wide`) each line whole, as given. */
export function fitLines(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text.split("\n").flatMap((line) => wrapLine(line, width)).join("\n");
}
