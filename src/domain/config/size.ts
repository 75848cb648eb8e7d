import * as z from "zod";

// Formatting needs no schema: readers that only print a size (`org status`) load it without zod.
export { formatSize } from "../units/index.js";

const SIZE = "a size: bytes as a number, or a number and a unit such as 512M, 20G or 1T (K, M, G, T: powers of 1024)";
const UNITS: Record<string, number> = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const SIZE_TEXT = /^(\d+(?:\.\d+)?)([KMGT]?)(?:i?B)?$/;

/** A size key of org.yaml: bytes as a number, or a string with a binary unit; parseSize reads it. */
export const size = z
  .union([z.number().int().nonnegative(), z.string().regex(SIZE_TEXT, { message: SIZE })], { error: SIZE })
  .describe("a size: bytes as a number, or a string such as 5M, 512M, 20G or 1T (powers of 1024; B or iB may follow)");

/** Bytes from a schema size. */
export function parseSize(value: number | string): number {
  if (typeof value === "number") return value;
  const match = SIZE_TEXT.exec(value);
  if (!match) throw new Error(`not a size: ${value}`);
  return Math.floor(Number(match[1]) * UNITS[match[2]!]!);
}
