import { parseStopFile, type StopFile } from "../../domain/experiments/stop-state.js";
import { stopFiles } from "../../domain/paths.js";
import { readText, writeJsonAtomic } from "../fs/files.js";
import { removeFile } from "../fs/dir.js";

// state/stop.json's one owner, apart from the stop rules: a reader (`org status`) loads none of them with it.

/** state/stop.json as the daemon last wrote it. */
export async function readStopFile(state: string): Promise<StopFile | undefined> {
  return parseStopFile(await readText(stopFiles(state).stop));
}

/** The stop watch's last decision, written whole. */
export async function writeStopFile(state: string, file: StopFile): Promise<void> {
  await writeJsonAtomic(stopFiles(state).stop, file);
}

/** No stop section and no stop under way: the last decision is no one's any more. */
export async function removeStopFile(state: string): Promise<void> {
  await removeFile(stopFiles(state).stop);
}
