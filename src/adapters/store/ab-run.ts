// state/ab.json and the org an A/B run runs: org.yaml (program A) and the file after --ab (program B) as one org.
import { isAbsolute, join, resolve } from "node:path";
import type { ConfigProbe, LoadedConfig } from "../../domain/config/index.js";
import {
  abRunPath as abFile, findAgentProgram, parseAbRun, parseAbSpans, type AbRun, type AbSpan,
} from "../../domain/config-versions/ab-run-record.js";
import { mergeAbPrograms, type AbMerge } from "../../domain/config-versions/ab-merge.js";
import { configProbe } from "../probes/config.js";
import { appendLines, readText, writeJsonAtomic } from "../fs/files.js";
import { removeFile } from "../fs/dir.js";
import { readAndLoadConfig, readConfigText } from "./config-file.js";
import { readProgramAt } from "./programs.js";

/** The A/B run on now; undefined when the org runs one program. */
export async function readAbRun(state: string): Promise<AbRun | undefined> {
  return parseAbRun(await readText(abFile(state)));
}

export async function writeAbRun(state: string, run: AbRun): Promise<void> {
  await appendLines(spansFile(state), [JSON.stringify(run)]);
  await writeJsonAtomic(abFile(state), run);
}

/** `org down`, or a plain `org up` after an A/B run that was not brought down; ab-runs.jsonl keeps when it ended. */
export async function removeAbRun(state: string): Promise<void> {
  if (!(await readAbRun(state))) return;
  await appendLines(spansFile(state), [JSON.stringify({ end: new Date().toISOString() })]);
  await removeFile(abFile(state));
}

/** Every A/B run this org ran, for `org history`'s tokens and $ per half. */
export async function readAbSpans(state: string): Promise<AbSpan[]> {
  return parseAbSpans((await readText(spansFile(state))) ?? "");
}

function spansFile(state: string): string {
  return join(state, "programs", "ab-runs.jsonl");
}

/**
 * The program an experiment of `agent` submitted at `time` ran under: its half's during an A/B run, else the
 * one running then.
 */
export async function readAgentProgramAt(state: string, agent: string, time: string): Promise<string | undefined> {
  const run = await readAbRun(state);
  const own = run && Date.parse(time) >= Date.parse(run.at) ? findAgentProgram(run, agent) : undefined;
  return own ?? readProgramAt(state, time);
}

/** Both programs loaded and merged, or every problem: B's as `other.yaml:L:C: …`, refused where it is another task. */
export async function loadAbPrograms(
  root: string, other: string, now?: Date, probe: ConfigProbe = configProbe,
): Promise<(Extract<AbMerge, { ok: true }> & {
  aLoaded: LoadedConfig; bLoaded: LoadedConfig;
}) | { problems: string[] }> {
  const a = await readAndLoadConfig({ cwd: root, now }, probe);
  if ("problems" in a) return a;
  const absolute = isAbsolute(other) ? other : resolve(root, other);
  if (absolute === resolve(root, a.loaded.file)) return {
    problems: [
      `--ab ${other}: is org.yaml itself — give the other program's file (a second org.yaml, e.g. other.yaml)`,
    ],
  };
  if ((await readConfigText(root, absolute).catch(() => "")) === undefined) return {
    problems: [
      `--ab ${other}: not found in ${root} — give the path of program B's org.yaml, relative to the org's folder`,
    ],
  };
  const b = await readAndLoadConfig({ cwd: root, file: other, now }, probe);
  if ("problems" in b) return b;
  const merged = mergeAbPrograms(a.loaded, b.loaded);
  return merged.ok ? { ...merged, aLoaded: a.loaded, bLoaded: b.loaded } : { problems: merged.problems };
}
