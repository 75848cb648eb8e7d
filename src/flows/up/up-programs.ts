// What `org up` starts and records as the org starts: org.yaml's
// program, or with --ab both programs, checked and merged first.
import { orgPaths } from "../../domain/paths.js";
import type { AbRun } from "../../domain/config-versions/ab-run-record.js";
import type { LoadedConfig } from "../../domain/config/index.js";
import { loadAbPrograms, removeAbRun, writeAbRun } from "../../adapters/store/ab-run.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";
import {
  readProgramContent, recordProgram, recordSideProgram, saveProgramCopy, type ProgramCopy,
} from "../../adapters/store/program-record.js";
import { createWorld } from "../../adapters/real-world.js";
import { readAndLoadConfig } from "../../adapters/store/config-file.js";

export type UpPrograms = {
  loaded: LoadedConfig; record: (at: Date) => Promise<string | undefined>;
  /** Saves what `record` will name, before the grid starts; `record` does it itself when this was not called. */
  save?: (at: Date) => void;
} | { problems: string[] };

/**
 * org.yaml, or with `ab` both programs; `record` saves the
 * version(s) run and says, for an A/B run, which agents run which.
 */
export async function prepareUp(root: string, ab: string | undefined, now: Date | undefined): Promise<UpPrograms> {
  if (ab !== undefined) return prepareAbUp(root, ab, now);
  const read = await readAndLoadConfig({ cwd: root, now });
  if ("problems" in read) return read;
  const state = orgPaths(root).state;
  const input = (at: Date) => ({ state, loaded: read.loaded, by: "org up", at, start: true });
  let copy: Promise<ProgramCopy> | undefined;
  return {
    loaded: read.loaded,
    save: (at) => {
      copy ??= saveProgramCopy(input(at));
      // Its failure is told by `record`; a grid that never stood records nothing, and then nothing is told.
      copy.catch(() => undefined);
    },
    record: async (at) => {
      // A plain `org up` of a stopped org: an A/B run left by a crash (no `org down`) is over.
      await Promise.all([removeAbRun(state), recordProgram(input(at), copy)]);
      return undefined;
    },
  };
}

/** The merged org to start, and what records both programs once it starts; or why not, with nothing changed. */
async function prepareAbUp(root: string, other: string, now: Date | undefined): Promise<UpPrograms> {
  const record = await readOptionalRecord(root).catch(() => undefined);
  if (record && (await createWorld().panes(record.socket, record.session).isRunning())) {
    return {
      problems: [
        `--ab ${other}: org ${record.name} is already running — ` +
          `an A/B run starts both halves together on the same hours: \`org down\` first, then \`org up --ab ${other}\``,
      ],
    };
  }
  const read = await loadAbPrograms(root, other, now);
  if ("problems" in read) return read;
  const [a, b] = await Promise.all([readProgramContent(read.aLoaded), readProgramContent(read.bLoaded)]);
  if (a.version === b.version)
    return {
      problems: [
        `--ab ${other}: is the same program as org.yaml (version ${a.version}) — ` +
          `an A/B run compares two different programs`,
      ],
    };
  const state = orgPaths(root).state;
  const recordBoth = async (at: Date): Promise<string> => {
    const va = await recordProgram({ state, loaded: read.aLoaded, by: "org up --ab", at, start: true });
    const vb = await recordSideProgram({ state, loaded: read.bLoaded, file: other, beside: va, at });
    const run: AbRun = {
      at: at.toISOString(),
      a: { version: va, file: read.aLoaded.file, agents: read.a },
      b: { version: vb, file: other, agents: read.b },
    };
    await writeAbRun(state, run);
    return `A/B run: A ${va} (${read.aLoaded.file}: ${read.a.join(", ")}) vs B ${vb} (${other}: ${read.b.join(", ")})`;
  };
  return { loaded: read.loaded, record: recordBoth };
}
