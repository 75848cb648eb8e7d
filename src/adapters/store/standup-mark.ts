// state/standup.json: what the last standup digest saw, the daemon's standup scheduler's alone to read and write.
import { standupFile } from "../../domain/paths.js";
import { isFields, isNumber, isString } from "../../domain/json-fields.js";
import type { StandupMark } from "../../domain/tasks/standup-due.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";

function parseStandupMark(value: unknown): StandupMark | undefined {
  return isFields(value) && isString(value.at) && isNumber(value.verdicts) ? { at: value.at, verdicts: value.verdicts }
    : undefined;
}

/**
 * The last digest's mark; undefined when none went out yet, or the file is unreadable or of another shape: the
 * scheduler then starts its count afresh, as on a first look, and never repeats the last digest.
 */
export async function readStandupMark(state: string): Promise<StandupMark | undefined> {
  return parseStandupMark(await readJson(standupFile(state)).catch(() => undefined));
}

/** Written whole or not at all. */
export async function writeStandupMark(state: string, mark: StandupMark): Promise<void> {
  await writeJsonAtomic(standupFile(state), mark);
}
