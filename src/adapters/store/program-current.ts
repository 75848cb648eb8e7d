// The program a saved version is compared with: org.yaml as it is now, or, when it does not load, the program
// that ran last.
import { resolve } from "node:path";
import { orgPaths } from "../../domain/paths.js";
import { findLastProgram } from "../../domain/config-versions/version-timeline.js";
import { computeProgramVersion, listPromptPaths, type ProgramContent } from "../../domain/config-versions/version.js";
import { readText } from "../fs/files.js";
import { readAndLoadConfig } from "./config-file.js";
import { readProgramEvents, readSavedProgram } from "./programs.js";

export type CurrentProgram =
  | { source: "org.yaml" | "last run"; version: string; content: ProgramContent; problems: string[] }
  | { source: "none"; problems: string[] };

export async function readCurrentProgram(root: string): Promise<CurrentProgram> {
  const read = await readAndLoadConfig({ cwd: root });
  if ("loaded" in read) {
    const { config, dir } = read.loaded;
    const prompts = Object.fromEntries(
      await Promise.all(
        listPromptPaths(config).map(async (path) => [path, (await readText(resolve(dir, path))) ?? ""] as const),
      ),
    );
    const content = { config, prompts };
    return { source: "org.yaml", version: computeProgramVersion(content), content, problems: [] };
  }
  const state = orgPaths(root).state;
  const last = findLastProgram(await readProgramEvents(state));
  const copy = last ? await readSavedProgram(state, last) : undefined;
  if (!last || !copy?.config || Object.values(copy.prompts).some((text) => text === undefined)) return {
    source: "none", problems: read.problems,
  };
  return {
    source: "last run", version: last,
    content: { config: copy.config, prompts: copy.prompts as Record<string, string> }, problems: read.problems,
  };
}
