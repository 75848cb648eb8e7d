// Rows of one table of a SQLite file, walked from its b-tree: enough of the file format to read opencode's messages.
import type { PageSource } from "./sqlite-pages.js";

export type SqlValue = number | string | Buffer | null;

/**
 * Every row of table `name`, as a map from column name to value; throws when the table is missing or the
 * file is damaged.
 */
export async function readTableRows(source: PageSource, name: string): Promise<Record<string, SqlValue>[]> {
  const schema = await readBtree(source, 1);
  const entry = schema.find((row) => row.values[0] === "table" && row.values[1] === name);
  if (!entry || typeof entry.values[3] !== "number" || typeof entry.values[4] !== "string") throw new Error(`no table "`
    + `${name}" in the database`);
  const columns = parseColumns(entry.values[4]);
  const rows = await readBtree(source, entry.values[3]);
  return rows.map(({ rowid, values }) => Object.fromEntries(
    columns.map((column, index) => [column.name, column.rowid ? rowid : (values[index] ?? null)]),
  ));
}

interface Cell {
  rowid: number;
  values: SqlValue[];
}

/** A table b-tree's rows in rowid order, depth first; a page seen twice means a torn read, and throws. */
async function readBtree(source: PageSource, root: number): Promise<Cell[]> {
  const cells: Cell[] = [];
  const seen = new Set<number>();
  const visit = async (number: number): Promise<void> => {
    if (seen.has(number)) throw new Error(`page ${number} is reached twice: the database changed while it was read`);
    seen.add(number);
    const page = await source.page(number);
    const base = number === 1 ? 100 : 0;
    const type = page[base]!;
    const count = page.readUInt16BE(base + 3);
    const interior = type === 5;
    if (type !== 5 && type !== 13) throw new Error(`page ${number} is not a table b-tree page (type ${type})`);
    const pointers = base + (interior ? 12 : 8);
    for (let index = 0; index < count; index++) {
      const at = page.readUInt16BE(pointers + 2 * index);
      if (interior) await visit(page.readUInt32BE(at));
      else cells.push(await readLeafCell(source, page, at));
    }
    if (interior) await visit(page.readUInt32BE(base + 8));
  };
  await visit(root);
  return cells;
}

async function readLeafCell(source: PageSource, page: Buffer, at: number): Promise<Cell> {
  const [size, afterSize] = readVarint(page, at);
  const [rowid, start] = readVarint(page, afterSize);
  // How much of a payload stays on the page, per the file format's rule for table leaves.
  const usable = source.usable;
  const max = usable - 35;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const spill = min + ((size - min) % (usable - 4));
  const local = size <= max ? size : spill <= max ? spill : min;
  const parts = [page.subarray(start, start + local)];
  let remaining = size - local;
  let next = remaining > 0 ? page.readUInt32BE(start + local) : 0;
  while (remaining > 0) {
    if (next === 0) throw new Error("a row's overflow chain ends early");
    const overflow = await source.page(next);
    const take = Math.min(remaining, usable - 4);
    parts.push(overflow.subarray(4, 4 + take));
    remaining -= take;
    next = overflow.readUInt32BE(0);
  }
  return { rowid, values: decodeRecord(Buffer.concat(parts)) };
}

function decodeRecord(payload: Buffer): SqlValue[] {
  const [headerSize, first] = readVarint(payload, 0);
  const types: number[] = [];
  for (let at = first; at < headerSize; ) {
    const [type, next] = readVarint(payload, at);
    types.push(type);
    at = next;
  }
  const values: SqlValue[] = [];
  let at = headerSize;
  for (const type of types) {
    const width = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type] ?? Math.floor((type - 12) / 2);
    if (type === 0) values.push(null);
    else if (type <= 5) values.push(payload.readIntBE(at, width));
    else if (type === 6) values.push(Number(payload.readBigInt64BE(at)));
    else if (type === 7) values.push(payload.readDoubleBE(at));
    else if (type === 8 || type === 9) values.push(type - 8);
    else if (type >= 12) values.push(type % 2 === 0
      ? payload.subarray(at, at + width)
      : payload.toString("utf8", at, at + width));
    else throw new Error(`a record holds the reserved serial type ${type}`);
    at += width;
  }
  return values;
}

/** A varint and the offset after it: 7 bits a byte, big-endian, the ninth byte whole. */
function readVarint(buffer: Buffer, at: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 8; index++) {
    const byte = buffer[at + index]!;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + index + 1];
  }
  return [value * 256 + buffer[at + 8]!, at + 9];
}

/**
 * Column names from CREATE TABLE, and which one is an INTEGER PRIMARY KEY (stored as the rowid, NULL in the record).
 */
function parseColumns(sql: string): { name: string; rowid: boolean }[] {
  const body = sql.slice(sql.indexOf("(") + 1, sql.lastIndexOf(")"));
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of body) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== "" && !/^(constraint|primary|unique|check|foreign)\b/i.test(part))
    .map((part) => ({
      name: part.split(/\s+/)[0]!.replace(/^[`"[]|[`"\]]$/g, ""), rowid: /^\S+\s+integer\s+primary\s+key\b/i.test(part),
    }));
}
