import { parseStopFile, type StopFile } from "../../domain/experiments/stop-state.js";
import { stopFiles } from "../../domain/paths.js";
import { readText, writeJsonAtomic } from "../fs/files.js";

// state/stop.json's one owner, apart from the stop rules: a reader (`org status`) loads none of them with it.

/** state/stop.json as the daemon last wrote it. */
export async function readStopFile(state: string): Promise<StopFile | undefined> {
  return parseStopFile(await readText(stopFiles(state).stop));
}

/** The stop watch's last decision, written whole. */
export async function writeStopFile(state: string, file: StopFile): Promise<void> {
  await writeJsonAtomic(stopFiles(state).stop, file);
}
