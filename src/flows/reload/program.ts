import type { LoadedConfig } from "../../domain/config/index.js";
import { recordProgram } from "../../adapters/store/program-record.js";

/** Record the program an applied reload runs; a failure to record is a warning, never a reload undone. */
export async function noteProgram(
  state: string, loaded: LoadedConfig, readPrompt: (prompt: string) => Promise<string | undefined>, by: string,
  at: Date,
): Promise<string[]> {
  return recordProgram({ state, loaded, readPrompt, by, at }).then(
    () => [],
    (error: Error) => [`the program version was not recorded in state/programs: ${error.message}`],
  );
}
