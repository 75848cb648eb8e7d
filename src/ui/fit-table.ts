// Every table org prints: plain aligned columns, readable in a pane, a log and a pipe alike. Given a terminal's
// width it fits it: descriptions cut with "…", long cells wrapped, then whole columns left out (and named).
import { cleanLine } from "../domain/safe-text.js";
import { allocateColumns, GAP, type ColumnNeed } from "./fit-columns.js";
import { cutToWidth, measureWidth } from "./text-width.js";
import { wrapLine, wrapParts } from "./wrap-text.js";

/** A cell's text, or its parts: on one line joined by a space; in a narrow wrapped column, broken between parts. */
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

type Mode = "cut" | "wrap" | "whole";

/** A wrapped column narrows to its widest word, or to this when a word (a path, a hash) is wider. */
const WRAP_FLOOR = 20;

/** The table as text: one line a row, or, fitted to `fit.width`, no line wider than it. */
export function renderTable(header: string[], given: Cell[][], fit: TableFit = {}): string {
  const body = given.map((row) => header.map((_, column) => toParts(row[column] ?? "")));
  const rows = [header.map((title) => [title]), ...body];
  const width = fit.width;
  if (width === undefined) return layOut(rows, header.map((_, column) => column)).join("\n");
  let shown = header.map((_, column) => column);
  const dropped: string[] = [];
  for (;;) {
    const needs = shown.map((column) => measureNeed(header[column]!, rows, column, fit));
    const widths = allocateColumns(needs, width);
    const next = fit.drop?.find((name) => !dropped.includes(name) && shown.some((column) => header[column] === name));
    if (widths || next === undefined) {
      const modes = shown.map((column) => findMode(header[column]!, fit));
      // Even every floor too wide: each line is cut, the last resort that still fits.
      const lines = layOut(rows, shown, widths && { widths, modes }).map((line) => cutToWidth(line, width));
      if (dropped.length === 0) return lines.join("\n");
      const note = `(${dropped.join(", ")} left out to fit ${width} columns: --wide shows every column)`;
      return [...lines, ...wrapLine(note, width)].join("\n");
    }
    dropped.push(next);
    shown = shown.filter((column) => header[column] !== next);
  }
}

/** A cell as its parts, each one line whatever an agent wrote. */
function toParts(cell: Cell): string[] {
  return (typeof cell === "string" ? [cell] : cell).map(cleanLine);
}

function findMode(title: string, fit: TableFit): Mode {
  return fit.cut?.includes(title) ? "cut" : fit.wrap?.includes(title) ? "wrap" : "whole";
}

function measureNeed(title: string, rows: string[][][], column: number, fit: TableFit): ColumnNeed {
  const cells = rows.map((row) => row[column]!);
  const natural = Math.max(...cells.map((parts) => measureWidth(parts.join(" "))));
  const mode = findMode(title, fit);
  if (mode === "whole") return { natural, floor: natural };
  if (mode === "cut") return { natural, floor: Math.min(natural, Math.max(measureWidth(title), fit.floor ?? 10)) };
  // A wrapped column breaks between parts (a plain cell's words, the header's too): its widest one is its floor.
  const units = cells.flatMap((parts) => (parts.length > 1 ? parts : parts[0]!.split(" ")));
  const widest = Math.max(...units.map((unit) => Math.min(measureWidth(unit), WRAP_FLOOR)));
  return { natural, floor: Math.min(natural, widest) };
}

/** Rows of padded cells: whole, or at `fitted` widths with cut columns cut and wrapped ones on more lines. */
function layOut(rows: string[][][], shown: number[], fitted?: { widths: number[]; modes: Mode[] }): string[] {
  const measure = (column: number) => Math.max(...rows.map((row) => measureWidth(row[column]!.join(" "))));
  const widths = fitted?.widths ?? shown.map(measure);
  return rows.flatMap((row) => {
    const blocks = shown.map((column, index) => fitCell(row[column]!, widths[index]!, fitted?.modes[index] ?? "whole"));
    const height = Math.max(...blocks.map((block) => block.length));
    return Array.from({ length: height }, (_, line) =>
      blocks.map((block, index) => pad(block[line] ?? "", widths[index]!)).join(" ".repeat(GAP)).trimEnd());
  });
}

function fitCell(parts: string[], width: number, mode: Mode): string[] {
  const text = parts.join(" ");
  if (mode === "whole" || measureWidth(text) <= width) return [text];
  if (mode === "cut") return [cutToWidth(text, width)];
  return wrapParts(parts.length > 1 ? parts : text.split(" ").filter((word) => word !== ""), width);
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(width - measureWidth(text), 0));
}
