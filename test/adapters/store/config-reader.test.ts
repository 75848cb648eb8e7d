import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createConfigReader } from "../../../src/adapters/store/run-config.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";

const orgYaml = (count: number) => `name: toy
gpus: none
runtimes:
  printer: { command: [sleep, "1000"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: ${count} }
`;

let dir: string;
beforeEach(() => {
  dir = createRepo({ "org.yaml": orgYaml(1), "prompts/researcher.md": "# Researcher\n" });
});
afterEach(() => removeDir(dir));

// A whole second, so that setting it again gives the very same mtime.
const STAMP = 1_700_000_000;

/** Rewrite org.yaml in place with the same size and mtime: what an mtime-keyed cache cannot tell apart. */
function writeStamped(text: string): { size: number; mtimeMs: number } {
  const file = join(dir, "org.yaml");
  writeFileSync(file, text);
  utimesSync(file, STAMP, STAMP);
  const { size, mtimeMs } = statSync(file);
  return { size, mtimeMs };
}

const countOf = (read: Awaited<ReturnType<ReturnType<typeof createConfigReader>["read"]>>) =>
  "loaded" in read ? read.loaded.config.roles.researcher?.count : read.problems;

describe("the running org's config reader", () => {
  test("loads once while org.yaml reads the same, and a reload loads anew", async () => {
    const reader = createConfigReader(dir);
    const first = await reader.read();
    expect(countOf(first)).toBe(1);
    expect(await reader.read()).toBe(first);
    const reloaded = await reader.reload();
    expect(reloaded).not.toBe(first);
    expect(reloaded).toEqual(first);
    expect(await reader.read()).toBe(reloaded);
  });

  test("an edit is seen by its content, even one that keeps the file's size and mtime", async () => {
    const reader = createConfigReader(dir);
    const before = writeStamped(orgYaml(1));
    expect(countOf(await reader.read())).toBe(1);
    expect(writeStamped(orgYaml(2))).toEqual(before);
    expect(countOf(await reader.read())).toBe(2);
  });

  test("a bad edit reads as its problems, and the next good one loads again", async () => {
    const reader = createConfigReader(dir);
    expect(countOf(await reader.read())).toBe(1);
    writeFileSync(join(dir, "org.yaml"), orgYaml(1).replace("count: 1", "count: many"));
    expect(await reader.read()).toEqual({
      problems: ['org.yaml:6:73: roles.researcher.count must be a whole number, got "many" — write a number such as 2'],
    });
    writeFileSync(join(dir, "org.yaml"), orgYaml(3));
    expect(countOf(await reader.read())).toBe(3);
  });
});
