import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { recordProgram, saveProgramCopy } from "../../../src/adapters/store/program-record.js";
import type { LoadedConfig } from "../../../src/domain/config/index.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";

const ORG_YAML = `name: toy
gpus: none
runtimes:
  idle: { command: [sleep, "1000"] }
roles:
  a: { prompt: prompt.md, runtime: idle, count: 1 }
`;

let dir: string;
beforeEach(() => {
  dir = createRepo({ "org.yaml": ORG_YAML, "prompt.md": "# {{agent}}\n" });
});
afterEach(() => removeDir(dir));

async function load(): Promise<LoadedConfig> {
  const read = await readAndLoadConfig({ cwd: dir });
  return "loaded" in read ? read.loaded : expect.fail(read.problems.join("\n"));
}

const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n");

describe("org up's program copy, saved before the grid and recorded after it", () => {
  test("the copy saved first, then recorded: one start in history, one log entry, the copy's own time", async () => {
    const loaded = await load();
    const state = join(dir, "state");
    const saved = new Date("2026-01-01T00:00:00.000Z");
    const copy = saveProgramCopy({ state, loaded, by: "org up", at: saved });
    const version = await recordProgram(
      { state, loaded, by: "org up", at: new Date("2026-01-01T00:00:01.000Z"), start: true }, copy,
    );
    expect(version).toBe((await copy).version);
    const history = lines(join(state, "programs", "history.jsonl")).map((line) => JSON.parse(line) as object);
    expect(history).toEqual([expect.objectContaining({ kind: "use", version, at: "2026-01-01T00:00:01.000Z" })]);
    const meta = readFileSync(join(state, "programs", version, "meta.json"), "utf8");
    expect(JSON.parse(meta)).toMatchObject({ firstSeen: saved.toISOString() });
    expect(readFileSync(join(state, "log.md"), "utf8")).toContain(`${version} is the first program`);
  });

  test("a copy that could not be saved: the record fails with its reason and writes no start", async () => {
    const loaded = await load();
    // state/programs is a file: no version folder can be made below it.
    const state = join(dir, "state");
    mkdirSync(state);
    writeFileSync(join(state, "programs"), "not a folder\n");
    const copy = saveProgramCopy({ state, loaded, by: "org up", at: new Date() });
    await expect(recordProgram({ state, loaded, by: "org up", at: new Date(), start: true }, copy))
      .rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(readFileSync(join(state, "programs"), "utf8")).toBe("not a folder\n");
  });
});
