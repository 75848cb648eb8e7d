// How many terminal columns text takes, and text cut or broken to a number of columns: a table sized by string length
// is torn by a CJK description or an emoji, and a cut through an escape sequence swallows the rest of the line.
import { dropEscapes } from "../domain/safe-text.js";

// East Asian Wide and Fullwidth blocks, and the BMP emoji terminals draw two columns wide.
export const WIDE: [number, number][] = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6],
];
// Combining marks, zero-width spaces and joiners, variation selectors.
export const ZERO_WIDTH: [number, number][] = [
  [0x0300, 0x036f], [0x200b, 0x200f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f],
];

export function within(code: number, ranges: [number, number][]): boolean {
  return ranges.some(([low, high]) => code >= low && code <= high);
}

/** 0, 1 or 2 columns; astral characters (emoji, CJK extensions) are taken as 2: too wide is safe, too narrow tears. */
function measureChar(char: string): number {
  const code = char.codePointAt(0)!;
  if (code >= 0x20 && code < 0x7f) return 1;
  // Controls move no column (tables get cleaned cells, but a width is asked of any text).
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || within(code, ZERO_WIDTH)) return 0;
  return code > 0xffff || within(code, WIDE) ? 2 : 1;
}

/** The columns `text` takes on a terminal, escape sequences left out. */
export function measureWidth(text: string): number {
  let width = 0;
  for (const char of dropEscapes(text)) width += measureChar(char);
  return width;
}

/** `text` in at most `width` columns: whole when it fits, else cut at a character and ended with `…`. */
export function cutToWidth(text: string, width: number): string {
  const plain = dropEscapes(text);
  if (measureWidth(plain) <= width) return plain;
  if (width <= 0) return "";
  return `${takeColumns(plain, width - 1)[0]}…`;
}

/** A word too long for `width` columns, in pieces of at most `width` columns each. */
export function breakToWidth(word: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = dropEscapes(word);
  while (rest !== "") {
    const [piece, after] = takeColumns(rest, Math.max(width, 2));
    pieces.push(piece);
    rest = after;
  }
  return pieces;
}

/** The longest head of `text` within `width` columns (a zero-width mark stays with its character), and the rest. */
function takeColumns(text: string, width: number): [string, string] {
  let used = 0;
  let head = "";
  for (const char of text) {
    const size = measureChar(char);
    if (used + size > width) break;
    used += size;
    head += char;
  }
  return [head, text.slice(head.length)];
}
