import { expect, test } from "vitest";
import { hasNonWhitespaceEdit } from "../../../src/domain/experiments/whitespace-edit.js";

const file = (hunk: string, lines: string[]) =>
  ["diff --git a/x b/x", "index 1..2 100644", "--- a/x", "+++ b/x", hunk, ...lines].join("\n");

test("an edited word is an edit that git diff -w shows", () => {
  expect(hasNonWhitespaceEdit(file("@@ -1,3 +1,3 @@", [" one", "-two", "+2", " three"]))).toBe(true);
  expect(hasNonWhitespaceEdit(file("@@ -1 +1,2 @@", [" one", "+new"]))).toBe(true);
});

test("whitespace, blank lines and moved lines are left to git: they may show as nothing", () => {
  expect(hasNonWhitespaceEdit(file("@@ -1,2 +1,3 @@", ["-a b", "+ a\tb ", "+", " c"]))).toBe(false);
  expect(hasNonWhitespaceEdit(file("@@ -1,2 +1,2 @@", ["-a", " b", "+a"]))).toBe(false);
  expect(hasNonWhitespaceEdit("diff --git a/x b/x\nold mode 100644\nnew mode 100755\n")).toBe(false);
});

test("a removed line reading '-- x' is a line, not a header; no newline markers are not lines", () => {
  expect(hasNonWhitespaceEdit(file("@@ -1 +1 @@", ["--- x", "+-- x"]))).toBe(false);
  expect(hasNonWhitespaceEdit(file("@@ -1 +1 @@", ["--- x", "\\ No newline at end of file", "+++ y"]))).toBe(true);
});
