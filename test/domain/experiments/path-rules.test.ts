import { describe, expect, test } from "vitest";
import { checkPaths, globToRegExp, matchesRule } from "../../../src/domain/experiments/path-rules.js";

const rules = { protected: ["prepare.py"], edits: ["train.py"] };

describe("checkPaths", () => {
  test("changing only an editable file passes", () => {
    expect(checkPaths([{ path: "train.py", status: "M" }], rules)).toEqual({ ok: true });
  });
  test("modifying or deleting a protected file is rejected", () => {
    expect(checkPaths([{ path: "prepare.py", status: "M" }], rules)).toEqual({
      ok: false,
      reason: "touches protected prepare.py",
    });
    expect(checkPaths([{ path: "prepare.py", status: "D" }], { ...rules, edits: [] })).toEqual({
      ok: false,
      reason: "touches protected prepare.py",
    });
  });
  test("renaming a protected file away, or a file onto it, is rejected", () => {
    expect(checkPaths([{ path: "old.py", status: "R100", from: "prepare.py" }], { ...rules, edits: [] })).toEqual({
      ok: false,
      reason: "touches protected prepare.py",
    });
    expect(checkPaths([{ path: "prepare.py", status: "R090", from: "train.py" }], rules)).toEqual({
      ok: false,
      reason: "touches protected prepare.py",
    });
  });
  test("a path outside non-empty edits is rejected, listing the globs", () => {
    expect(checkPaths([{ path: "train.py", status: "M" }, { path: "data/x.csv", status: "A" }], rules)).toEqual({
      ok: false,
      reason: "changes data/x.csv, outside edits [train.py]",
    });
  });
  test("empty edits allows any path that is not protected", () => {
    expect(checkPaths([{ path: "notes/idea.md", status: "A" }, { path: "train.py", status: "M" }], {
      protected: ["prepare.py"],
      edits: [],
    })).toEqual({ ok: true });
  });
  test("a protected folder covers everything below it", () => {
    expect(checkPaths([{ path: "eval/harness.py", status: "M" }], { protected: ["eval/"], edits: [] })).toEqual({
      ok: false,
      reason: "touches protected eval/harness.py",
    });
  });
  test("an editable file made a symbolic link into the scorer, a folder holding it, or out of the repo is rejected; "
    + "one to an editable file passes", () => {
    const link = (target: string, path = "train.py") =>
      checkPaths([{ path, status: "T", link: target }], { protected: ["prepare.py", "eval/"], edits: [] });
    expect(link("prepare.py")).toEqual({
      ok: false,
      reason: "train.py is a symbolic link to protected prepare.py: commit the file itself",
    });
    expect(link("../prepare.py", "lib/train.py")).toEqual({
      ok: false,
      reason: "lib/train.py is a symbolic link to protected prepare.py: commit the file itself",
    });
    expect(link("./eval/score.py")).toEqual({
      ok: false,
      reason: "train.py is a symbolic link to protected eval/score.py: commit the file itself",
    });
    expect(link(".", "lib")).toEqual({
      ok: false,
      reason: "lib is a symbolic link to protected .: commit the file itself",
    });
    expect(link("eval", "lib")).toEqual({
      ok: false,
      reason: "lib is a symbolic link to protected eval: commit the file itself",
    });
    expect(link("/org/repo/prepare.py")).toEqual({
      ok: false,
      reason: "train.py is a symbolic link out of the repo (/org/repo/prepare.py): commit the file itself",
    });
    expect(link("../../state/results.tsv", "lib/x")).toEqual({
      ok: false,
      reason: "lib/x is a symbolic link out of the repo (../../state/results.tsv): commit the file itself",
    });
    expect(link("model.py")).toEqual({ ok: true });
  });
  test("long lists are cut after five paths", () => {
    const changed = ["a", "b", "c", "d", "e", "f", "g"].map((path) => ({ path: `${path}.txt`, status: "A" }));
    expect(checkPaths(changed, rules)).toEqual({
      ok: false,
      reason: "changes a.txt, b.txt, c.txt, d.txt, e.txt (+2 more), outside edits [train.py]",
    });
  });
  test("no changes pass", () => {
    expect(checkPaths([], rules)).toEqual({ ok: true });
  });
});

describe("globs", () => {
  test("* stays within a segment", () => {
    expect(globToRegExp("*.py").test("train.py")).toBe(true);
    expect(globToRegExp("*.py").test("src/train.py")).toBe(false);
  });
  test("** crosses segments, and **/ may match none", () => {
    expect(globToRegExp("src/**/*.py").test("src/a/b/model.py")).toBe(true);
    expect(globToRegExp("src/**/*.py").test("src/model.py")).toBe(true);
    expect(globToRegExp("configs/**").test("configs/a/b.yaml")).toBe(true);
    expect(globToRegExp("**/*.md").test("README.md")).toBe(true);
  });
  test("? is one character, and regex characters are literal", () => {
    expect(globToRegExp("run?.log").test("run1.log")).toBe(true);
    expect(globToRegExp("run?.log").test("run12.log")).toBe(false);
    expect(globToRegExp("a+b(1).txt").test("a+b(1).txt")).toBe(true);
    expect(globToRegExp("train.py").test("trainXpy")).toBe(false);
  });
  test("a leading ./ is ignored", () => {
    expect(matchesRule("train.py", "./train.py")).toBe(true);
  });
});
