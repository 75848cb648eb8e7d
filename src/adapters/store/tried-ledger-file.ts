import { open } from "node:fs/promises";
import { join } from "node:path";
import {
  formatTriedEntry, parseTriedLedger, type TriedEntry, type TriedLedger,
} from "../../domain/experiments/tried-ledger.js";
import { appendLines, readText } from "../fs/files.js";

/** How the experiment ledger is named in its problems: where a person finds it from the org's folder. */
const SHOWN = "state/tried.jsonl";

export function triedLedgerFile(state: string): string {
  return join(state, "tried.jsonl");
}

/** Every entry that parses, and a problem per line that does not; no file yet is an empty ledger. */
export async function readTriedLedger(state: string): Promise<TriedLedger> {
  return parseTriedLedger((await readText(triedLedgerFile(state))) ?? "", SHOWN);
}

/**
 * One entry in one append; a last line left without its newline (cut short, hand-edited) is ended first, so it stays
 * its own line.
 */
export async function appendTriedEntry(state: string, entry: TriedEntry): Promise<void> {
  const file = triedLedgerFile(state);
  const ended = await endsWithNewline(file);
  await appendLines(file, [...(ended ? [] : [""]), formatTriedEntry(entry)]);
}

async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return true;
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
