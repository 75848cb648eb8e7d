// Reads an @xterm/headless screen back as text: plain lines, or lines with SGR escapes for colour.
import type xterm from "@xterm/headless";

type Terminal = InstanceType<typeof xterm.Terminal>;
type Cell = NonNullable<ReturnType<NonNullable<ReturnType<Terminal["buffer"]["active"]["getLine"]>>["getCell"]>>;

/** The visible rows of `term`, top to bottom, trailing blanks of each row dropped. */
export function readScreen(term: Terminal, opts: { attributes?: boolean } = {}): string[] {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (!line) lines.push("");
    else if (!opts.attributes) lines.push(line.translateToString(true));
    else lines.push(renderStyledLine(line, term.cols, buffer.getNullCell()));
  }
  return lines;
}

type Line = NonNullable<ReturnType<Terminal["buffer"]["active"]["getLine"]>>;

function renderStyledLine(line: Line, cols: number, scratch: Cell): string {
  let out = "";
  let current = "0";
  // Everything after the last non-blank cell is dropped, as translateToString(true) does for plain text.
  let end = cols;
  while (end > 0 && isBlank(line.getCell(end - 1, scratch))) end--;
  for (let x = 0; x < end; x++) {
    const cell = line.getCell(x, scratch);
    // The right half of a wide character is a zero-width placeholder: its glyph was written with the left half.
    if (!cell || cell.getWidth() === 0) continue;
    const style = sgrOf(cell);
    if (style !== current) {
      out += `\x1b[${style === "0" ? "0" : `0;${style}`}m`;
      current = style;
    }
    out += cell.getChars() || " ";
  }
  return current === "0" ? out : `${out}\x1b[0m`;
}

function isBlank(cell: Cell | undefined): boolean {
  return (
    !cell || ((cell.getChars() === "" || cell.getChars() === " ") && cell.isAttributeDefault() && !cell.isInverse())
  );
}

/** The SGR parameters of one cell, "0" for the default style. */
function sgrOf(cell: Cell): string {
  const codes: number[] = [];
  if (cell.isBold()) codes.push(1);
  if (cell.isDim()) codes.push(2);
  if (cell.isItalic()) codes.push(3);
  if (cell.isUnderline()) codes.push(4);
  if (cell.isInverse()) codes.push(7);
  pushColor(codes, cell.isFgPalette(), cell.isFgRGB(), cell.getFgColor(), 30);
  pushColor(codes, cell.isBgPalette(), cell.isBgRGB(), cell.getBgColor(), 40);
  return codes.length === 0 ? "0" : codes.join(";");
}

function pushColor(codes: number[], palette: boolean, rgb: boolean, color: number, base: 30 | 40): void {
  if (palette && color < 8) codes.push(base + color);
  else if (palette && color < 16) codes.push(base + 60 + color - 8);
  else if (palette) codes.push(base + 8, 5, color);
  else if (rgb) codes.push(base + 8, 2, (color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff);
}
