import { parseStopFile, type StopFile } from "../../domain/experiments/stop-state.js";
import { stopFiles } from "../../domain/paths.js";
import { readText } from "../fs/files.js";

/** state/stop.json as the daemon last wrote it; alone here, so a reader (`org status`) loads no stop rule with it. */
export async function readStopFile(state: string): Promise<StopFile | undefined> {
  return parseStopFile(await readText(stopFiles(state).stop));
}
