// Recording which program runs: its version saved under state/programs/, its start in history.jsonl, a
// change in log.md.
import { resolve } from "node:path";
import type { LoadedConfig } from "../../domain/config/index.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { logPath } from "../../domain/paths.js";
import { describeAuthor, describeProgramChanges } from "../../domain/config-versions/version-changes.js";
import { findLastProgram } from "../../domain/config-versions/version-timeline.js";
import { computeProgramVersion, listPromptPaths, type ProgramContent } from "../../domain/config-versions/version.js";
import { appendLines, readText } from "../fs/files.js";
import { appendProgramEvent, readMeta, readProgramEvents, readSavedProgram, saveProgram } from "./programs.js";

export interface RecordProgramInput {
  state: string;
  loaded: LoadedConfig;
  /** A prompt's text by the path org.yaml gives; default: the file next to org.yaml. */
  readPrompt?: (prompt: string) => Promise<string | undefined>;
  /** `org up`, daemon (a save), `org reload`, `meta edit by <agent>`, `org program restore <v>`. */
  by: string;
  at: Date;
  /** `org up`: a new stretch of running starts even when the version is the one that ran last. */
  start?: boolean;
}

/** The version now running: saved when new, a history line when it starts running, a log.md entry when it changed. */
export async function recordProgram(input: RecordProgramInput, copy?: Promise<ProgramCopy>): Promise<string> {
  const { state } = input;
  const at = input.at.toISOString();
  const [{ content, version }, events] = await Promise.all([copy ?? saveProgramCopy(input), readProgramEvents(state)]);
  const previous = findLastProgram(events);
  if (previous === version && !input.start) return version;
  await appendProgramEvent(state, { at, kind: "use", version, by: input.by });
  if (previous !== version) await logChange(state, {
    version, previous, content, by: input.by, at: input.at, start: input.start === true,
  });
  return version;
}

/** A program's content and version, once its copy is under state/programs/<version>/. */
export interface ProgramCopy {
  content: ProgramContent;
  version: string;
}

/**
 * The program's copy saved when its version is new, and nothing else: `org up` saves it beside the grid's start, so
 * only the start's lines are left for recordProgram once the grid stands.
 */
export async function saveProgramCopy(input: Omit<RecordProgramInput, "start">): Promise<ProgramCopy> {
  const { loaded, state } = input;
  const { content, version } = await readProgramContent(loaded, input.readPrompt);
  if (!(await readMeta(state, version))) await saveProgram(state, {
    version, at: input.at.toISOString(), by: input.by, orgYaml: loaded.text, config: loaded.config,
    prompts: content.prompts,
  });
  return { content, version };
}

/** A loaded org.yaml's program and its version; prompts read next to it unless `readPrompt` says otherwise. */
export async function readProgramContent(
  loaded: LoadedConfig, readPrompt?: (prompt: string) => Promise<string | undefined>,
): Promise<{ content: ProgramContent; version: string }> {
  const read = readPrompt ?? ((prompt: string) => readText(resolve(loaded.dir, prompt)));
  const prompts = Object.fromEntries(
    await Promise.all(listPromptPaths(loaded.config).map(async (path) => [path, (await read(path)) ?? ""] as const)),
  );
  const content: ProgramContent = { config: loaded.config, prompts };
  return { content, version: computeProgramVersion(content) };
}

/**
 * `org up --ab`: program B saved and logged, with no use event: the timeline stays A's, and B's rows are
 * named by state/ab.json.
 */
export async function recordSideProgram(
  input: { state: string; loaded: LoadedConfig; file: string; beside: string; at: Date },
): Promise<string> {
  const { content, version } = await readProgramContent(input.loaded);
  const at = input.at.toISOString();
  if (!(await readMeta(input.state, version))) await saveProgram(input.state, {
    version, at, by: "org up --ab", orgYaml: input.loaded.text, config: content.config, prompts: content.prompts,
  });
  const body = [
    `from ${input.file}; its agents' names start with b-`,
    `saved in state/programs/${version}/ — \`org program show ${version}\``,
  ].join("\n");
  await appendLines(logPath(input.state), [
    formatLogEntry({
      date: input.at, op: "program",
      title: `${version} runs beside ${input.beside} as program B of an A/B run, by ${describeAuthor("org up --ab")}`,
      body,
    }),
  ]);
  return version;
}

/** `org down`: the program that ran stops; nothing when none was running. */
export async function recordProgramStop(state: string, at: Date): Promise<void> {
  const events = await readProgramEvents(state);
  if (events[events.length - 1]?.kind === "use") await appendProgramEvent(state, {
    at: at.toISOString(), kind: "stop", by: "org down",
  });
}

async function logChange(
  state: string,
  change: {
    version: string; previous: string | undefined; content: ProgramContent; by: string; at: Date; start: boolean;
  },
): Promise<void> {
  const { version, previous } = change;
  const before = previous ? await readSavedProgram(state, previous) : undefined;
  const known = before?.config && Object.values(before.prompts).every((text) => text !== undefined);
  const lines = previous && !known
    ? [`the saved copy of ${previous} is gone or incomplete, so what changed is unknown`]
    : describeProgramChanges(known
      ? { config: before.config!, prompts: before.prompts as Record<string, string> }
      : undefined, change.content);
  // A reload finding no version recorded: an org started before versions were kept, not a change.
  const first = change.start ? "is the first program" : "is the first program recorded (the org was already running)";
  const title = `${version} ${previous ? `replaces ${previous}` : first}, by ${describeAuthor(change.by)}`;
  const body = [...lines, `saved in state/programs/${version}/ — \`org program show ${version}\``].join("\n");
  await appendLines(logPath(state), [formatLogEntry({ date: change.at, op: "program", title, body })]);
}
