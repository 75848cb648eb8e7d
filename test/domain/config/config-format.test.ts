import { describe, expect, it } from "vitest";
import { formatProblems } from "../../../src/domain/config/index.js";
import { VALID, problemsOf } from "../../fixtures/configs/fake-probe.js";

describe("formatProblems: problems found after loading", () => {
  it("places values, keys and missing keys, in document order", () => {
    const problems = formatProblems("org.yaml", `${VALID}    gpu: true\n`, [
      {
        path: ["roles", "researcher", "gpu"],
        message: "roles.researcher wants a GPU but none is free",
        fix: "free one or set gpu: false",
      },
      { path: ["roles", "researcher"], at: "key", message: "researcher is here", fix: "nothing" },
      { path: ["gpus"], message: "gpus is not set", fix: "set it" },
    ]);
    expect(problems).toEqual([
      "org.yaml:1:1: gpus is not set — set it",
      "org.yaml:5:3: researcher is here — nothing",
      "org.yaml:8:10: roles.researcher wants a GPU but none is free — free one or set gpu: false",
    ]);
  });

  it("follows list indices and aliases, and drops exact repeats", () => {
    const text = "base_cmd: &cmd [python, train.py]\nverify:\n  command: *cmd\n";
    const problem = { path: ["verify", "command", 1], message: "no such file", fix: "create it" };
    expect(formatProblems("x.yaml", text, [problem, problem])).toEqual(["x.yaml:1:25: no such file — create it"]);
  });
});

describe("YAML syntax errors are reported alone, with positions", () => {
  it("a duplicate key, even with schema problems elsewhere", async () => {
    const text = `${VALID}    count: two\nroles:\n  other: {}\n`;
    expect(await problemsOf(text)).toEqual([
      'org.yaml:9:1: duplicate key "roles" — keep one "roles"; a YAML map cannot repeat a key',
    ]);
  });

  it("every duplicate key, in nested maps too", async () => {
    expect(await problemsOf(`${VALID}    runtime: other\nname: a\nname: b\n`)).toEqual([
      'org.yaml:8:5: duplicate key "runtime" — keep one "runtime"; a YAML map cannot repeat a key',
      'org.yaml:10:1: duplicate key "name" — keep one "name"; a YAML map cannot repeat a key',
    ]);
  });

  it("only the first structural error, since the rest echo it", async () => {
    expect(await problemsOf(`gpus: [0, 1\n${VALID}`)).toEqual([
      "org.yaml:2:1: YAML syntax error: flow sequence in block collection must be sufficiently indented and end with a "
        + "] — fix the syntax here (indentation, quotes, brackets, a ': ' inside an unquoted value)",
    ]);
  });

  it("tabs, a second document and an alias without its anchor", async () => {
    expect(await problemsOf(`${VALID}\tcount: 2\n`)).toEqual([
      "org.yaml:8:1: a tab is used for indentation — indent with spaces",
    ]);
    expect(await problemsOf(`${VALID}---\nname: x\n`)).toEqual([
      'org.yaml:8:1: more than one YAML document (a second "---") — '
        + 'keep everything in one document: remove the extra ---',
    ]);
    expect(await problemsOf(`${VALID}    edits: *globs\n`)).toEqual([
      'org.yaml:8:12: alias "*globs" has no anchor "&globs" before it — '
        + 'define the anchor first, or write the value out',
    ]);
  });
});
