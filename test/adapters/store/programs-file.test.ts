// state/programs/<version>/ through its owner: read back whole; a damaged meta.json is no saved version, and a damaged
// config.json a copy gone, for the caller to name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import { listSavedVersions, readMeta, readSavedProgram, saveProgram } from "../../../src/adapters/store/programs.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

const ORG_YAML = `name: toy
repo: .
base: main
gpus: none
runtimes:
  printer: { command: [sleep, "1000"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }
verify:
  command: [python3, train.py]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
`;

async function saveToy(): Promise<{ state: string; version: string }> {
  dir = createRepo({ "org.yaml": ORG_YAML, "prompts/researcher.md": "# Researcher\n", "train.py": "print(1)\n" });
  const read = await readAndLoadConfig({ cwd: dir });
  if (!("loaded" in read)) throw new Error(read.problems.join("\n"));
  const state = join(dir, "state");
  const prompts = { "prompts/researcher.md": "# Researcher\n" };
  const at = "2026-01-07T10:00:00.000Z";
  const config = read.loaded.config;
  await saveProgram(state, { version: "abc123", at, by: "org up", orgYaml: ORG_YAML, config, prompts });
  return { state, version: "abc123" };
}

test("a saved version is read back whole; a version never saved is none", async () => {
  const { state, version } = await saveToy();
  const copy = await readSavedProgram(state, version);
  expect(copy?.meta).toMatchObject({ version, by: "org up", prompts: { "prompts/researcher.md": expect.any(String) } });
  expect(copy?.config?.roles.researcher?.count).toBe(1);
  expect(copy?.prompts).toEqual({ "prompts/researcher.md": "# Researcher\n" });
  expect(await readSavedProgram(state, "fff")).toBeUndefined();
});

test.each([
  ["cut short", '{"version": "abc'],
  ["with a prompt copy of another type", '{"version": "abc123", "firstSeen": "x", "by": "y", "prompts": {"p": 1}}'],
])("a meta.json %s is no saved version, and is left as it was", async (_, text) => {
  const { state, version } = await saveToy();
  const file = join(state, "programs", version, "meta.json");
  writeFileSync(file, text);
  expect(await readMeta(state, version)).toBeUndefined();
  expect(await listSavedVersions(state)).toEqual([]);
  expect(readFileSync(file, "utf8")).toBe(text);
});

test("a config.json of another shape reads as a copy gone, and is left as it was", async () => {
  const { state, version } = await saveToy();
  const file = join(state, "programs", version, "config.json");
  writeFileSync(file, '{"name": "toy", "roles": 3}');
  expect((await readSavedProgram(state, version))?.config).toBeUndefined();
  expect(readFileSync(file, "utf8")).toBe('{"name": "toy", "roles": 3}');
});
