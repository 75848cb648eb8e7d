// Every table org prints: plain aligned columns, readable in a pane, a log and a pipe alike. Given a terminal's
// width it fits it: descriptions cut with "…", long cells wrapped, then whole columns left out (and named).
import { cleanLine } from "../org/safe-text.js";
import { allocateColumns, GAP, type ColumnNeed } from "./fit-columns.js";
import { cutToWidth, measureWidth } from "./text-width.js";
import { wrapLine, wrapParts } from "./wrap-text.js";

/** A cell's text, or its parts: on one line joined by a space; in a narrow wrapped column, broken only between parts. */
export type Cell = string | string[];

export interface TableFit {
  /** The terminal's columns; none (a pipe, `--wide`): every row whole. */
  width?: number;
  /** Columns, by header, cut with "…" when the table is too wide: descriptions, notes. */
  cut?: string[];
  /** Columns, by header, whose cells go on more lines when the table is too wide. */
  wrap?: string[];
  /** The fewest columns a cut column keeps before a column is left out instead; 10 unless given. */
  floor?: number;
  /** Columns, by header, left out in this order when the table is too wide even cut and wrapped. */
  drop?: string[];
}

/** A wrapped column narrows to its widest word, or to this when a word (a path, a hash) is wider. */
const WRAP_FLOOR = 20;

/** The table as text: one line a row, or, fitted to `fit.width`, no line wider than it. */
export function renderTable(header: string[], given: Cell[][], fit: TableFit = {}): string {
  const rows = given.map((row) => header.map((_, column) => toParts(row[column] ?? "")));
  const width = fit.width;
  if (width === undefined) return layOut(header.map((cell) => [cell]), rows, header.map((_, column) => column), {});
  let shown = header.map((_, column) => column);
  const dropped: string[] = [];
  for (;;) {
    const widths = allocateColumns(shown.map((column) => measureNeed(header[column]!, rows, column, fit)), width);
    const next = (fit.drop ?? []).find((name) => !dropped.includes(name) && shown.some((column) => header[column] === name));
    if (widths || next === undefined) {
      const text = layOut(header.map((cell) => [cell]), rows, shown, { widths, fit, header });
      const lines = text.split("\n").map((line) => cutToWidth(line, width));
      const note = dropped.length === 0 ? [] : wrapLine(`(${dropped.join(", ")} left out to fit ${width} columns: --wide shows every column)`, width);
      return [...lines, ...note].join("\n");
    }
    dropped.push(next);
    shown = shown.filter((column) => header[column] !== next);
  }
}

/** A cell as its parts, each one line whatever an agent wrote. */
function toParts(cell: Cell): string[] {
  return (typeof cell === "string" ? [cell] : cell).map(cleanLine);
}

function measureNeed(title: string, rows: string[][][], column: number, fit: TableFit): ColumnNeed {
  const cells = rows.map((row) => row[column]!);
  const natural = Math.max(measureWidth(title), ...cells.map((parts) => measureWidth(parts.join(" "))));
  if (fit.cut?.includes(title)) return { natural, floor: Math.min(natural, Math.max(measureWidth(title), fit.floor ?? 10)) };
  if (!fit.wrap?.includes(title)) return { natural, floor: natural };
  // A wrapped column breaks between parts (a plain cell's words): its widest part, or WRAP_FLOOR, is its floor.
  const units = [...title.split(" "), ...cells.flatMap((parts) => (parts.length > 1 ? parts : parts[0]!.split(" ")))];
  return { natural, floor: Math.min(natural, Math.max(...units.map(measureWidth).map((one) => Math.min(one, WRAP_FLOOR)))) };
}

/** Rows of padded cells; with `widths`, a cut column cut and a wrapped one on as many lines as it needs. */
function layOut(head: string[][], rows: string[][][], shown: number[], at: { widths?: number[]; fit?: TableFit; header?: string[] }): string {
  const all = [head, ...rows];
  const widths = at.widths ?? shown.map((column) => Math.max(...all.map((row) => measureWidth(row[column]!.join(" ")))));
  const lines = all.flatMap((row) => {
    const blocks = shown.map((column, index) => fitCell(row[column]!, widths[index]!, at.widths ? mode(at.header![column]!, at.fit!) : "whole"));
    const height = Math.max(...blocks.map((block) => block.length));
    return Array.from({ length: height }, (_, line) => blocks.map((block, index) => pad(block[line] ?? "", widths[index]!)).join(" ".repeat(GAP)).trimEnd());
  });
  return lines.join("\n");
}

function mode(title: string, fit: TableFit): "cut" | "wrap" | "whole" {
  return fit.cut?.includes(title) ? "cut" : fit.wrap?.includes(title) ? "wrap" : "whole";
}

function fitCell(parts: string[], width: number, how: "cut" | "wrap" | "whole"): string[] {
  const text = parts.join(" ");
  if (how === "whole" || measureWidth(text) <= width) return [text];
  if (how === "cut") return [cutToWidth(text, width)];
  return wrapParts(parts.length > 1 ? parts : text.split(" ").filter((word) => word !== ""), width);
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(width - measureWidth(text), 0));
}
