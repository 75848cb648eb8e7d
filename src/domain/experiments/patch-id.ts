// `git patch-id --stable` of a diff, computed here: the tried key without a git process. A port of git's
// builtin/patch-id.c (2.39), byte for byte: lines are C strings (cut at a NUL), whitespace is git's own (space, tab,
// LF, CR), and its quirks are kept, since ids on disk in state/tried.jsonl were written by git and must match.
import { createHash, type Hash } from "node:crypto";

const HEX_ID = /^[0-9a-fA-F]{40}/;
const NUL = 0;
const NEWLINE = 0x0a;

/** The first id `git patch-id --stable` prints for `diff` ("" when it prints none), as 40 hex digits. */
export function computePatchId(diff: Buffer): string {
  const reader = { diff, at: 0 };
  while (reader.at < diff.length) {
    const { length, result } = readOnePatch(reader);
    if (length > 0) return result.toString("hex");
  }
  return "";
}

// git's get_one_patchid: one patch's id, up to the next commit header or the patch's end.
function readOnePatch(reader: { diff: Buffer; at: number }): { length: number; result: Buffer } {
  const result = Buffer.alloc(20);
  let hash = createHash("sha1");
  let length = 0;
  let before = -1;
  let after = -1;
  let binary = false;
  let oids = { pre: "", post: "" };
  const flush = () => {
    addWithCarry(result, hash);
    hash = createHash("sha1");
  };
  for (let line = nextLine(reader); line !== undefined; line = nextLine(reader)) {
    const text = line.toString("latin1");
    const prefixed = skipPrefix(text, "commit ") ?? skipPrefix(text, "From ");
    if (prefixed === undefined && text.startsWith("\\ ") && text.length > 12) continue;
    if (HEX_ID.test(prefixed ?? text)) break;
    // Commit comments before the first diff.
    if (length === 0 && !text.startsWith("diff ")) continue;
    if (before === -1) {
      if (text.startsWith("GIT binary patch") || text.startsWith("Binary files")) {
        binary = true;
        before = 0;
        hash.update(oids.pre, "latin1");
        hash.update(oids.post, "latin1");
        flush();
        continue;
      }
      if (text.startsWith("index ")) {
        oids = readIndexLine(text, oids);
        continue;
      }
      if (text.startsWith("--- ")) before = after = 1;
      else if (!isAlpha(text.charCodeAt(0))) break;
    }
    if (binary) {
      if (text.startsWith("diff ")) [binary, before] = [false, -1];
      continue;
    }
    if (before === 0 && after === 0) {
      if (text.startsWith("@@ -")) {
        [before, after] = scanHunkHeader(text, before, after);
        continue;
      }
      // The patch ends here.
      if (!text.startsWith("diff ")) break;
      flush();
      before = after = -1;
    }
    if (text[0] === "-" || text[0] === " ") before--;
    if (text[0] === "+" || text[0] === " ") after--;
    const kept = removeSpace(line);
    length += kept.length;
    hash.update(kept);
  }
  flush();
  return { length, result };
}

// A line with its newline, cut at its first NUL as C reads it; undefined at the end.
function nextLine(reader: { diff: Buffer; at: number }): Buffer | undefined {
  const { diff, at } = reader;
  if (at >= diff.length) return undefined;
  const newline = diff.indexOf(NEWLINE, at);
  const end = newline === -1 ? diff.length : newline + 1;
  reader.at = end;
  const line = diff.subarray(at, end);
  const nul = line.indexOf(NUL);
  return nul === -1 ? line : line.subarray(0, nul);
}

function skipPrefix(text: string, prefix: string): string | undefined {
  return text.startsWith(prefix) ? text.slice(prefix.length) : undefined;
}

// "index <pre>..<post>[ <mode>]": git keeps both ids (up to 64 characters each) for a binary file's hash.
function readIndexLine(text: string, last: { pre: string; post: string }): { pre: string; post: string } {
  const dots = text.indexOf("..");
  if (dots === -1) return last;
  const space = text.indexOf(" ", dots);
  // No mode after the ids: git cuts the line's last character (its newline, or the id's last digit without one).
  const end = space === -1 ? text.length - 1 : space;
  const post = dots + 2 <= end ? text.slice(dots + 2, end) : "";
  return { pre: text.slice("index ".length, Math.max(dots, "index ".length)).slice(0, 64), post: post.slice(0, 64) };
}

// git's scan_hunk_header: each count after its comma, 1 when there is none; a header it cannot read changes what it
// set before it stopped.
function scanHunkHeader(text: string, before: number, after: number): [number, number] {
  let q = 4;
  let digits = countDigits(text, q);
  if (text[q + digits] === ",") {
    q += digits + 1;
    before = parseLeadingInt(text, q);
    digits = countDigits(text, q);
  } else {
    before = 1;
  }
  if (digits === 0 || text[q + digits] !== " " || text[q + digits + 1] !== "+") return [before, after];
  let r = q + digits + 2;
  digits = countDigits(text, r);
  if (text[r + digits] === ",") {
    r += digits + 1;
    after = parseLeadingInt(text, r);
  } else {
    after = 1;
  }
  return [before, after];
}

function countDigits(text: string, from: number): number {
  let index = from;
  while (index < text.length && text.charCodeAt(index) >= 0x30 && text.charCodeAt(index) <= 0x39) index++;
  return index - from;
}

// C's atoi: leading C whitespace, a sign, then digits (git's own headers have digits alone there).
function parseLeadingInt(text: string, from: number): number {
  const match = /^[ \t\n\v\f\r]*([+-]?)(\d*)/.exec(text.slice(from))!;
  const value = Number(match[2] || "0") | 0;
  return match[1] === "-" ? -value : value;
}

// git's isspace: space, tab, LF and CR only (its ctype, not C's: no vertical tab or form feed).
function removeSpace(line: Buffer): Buffer {
  return Buffer.from(line.filter((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d));
}

function isAlpha(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

// git's flush_one_hunk: the hash added into the result byte by byte, the carry going up the bytes.
function addWithCarry(result: Buffer, hash: Hash): void {
  const digest = hash.digest();
  let carry = 0;
  for (let index = 0; index < 20; index++) {
    carry += result[index]! + digest[index]!;
    result[index] = carry & 0xff;
    carry >>= 8;
  }
}
