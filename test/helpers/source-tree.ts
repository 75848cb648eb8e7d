// The source tree as the house tests read it: src's files, their text, and that text without comments.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PACKAGE_ROOT } from "./org-cli.js";

export const SRC = join(PACKAGE_ROOT, "src");

export function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === "node_modules") return [];
    return entry.isDirectory() ? sourceFiles(path, pattern) : pattern.test(entry.name) ? [path] : [];
  });
}

/** Each source file of src, relative to src, with its text. */
export function readSources(): (readonly [string, string])[] {
  return sourceFiles(SRC).map((file) => [relative(SRC, file), readFileSync(file, "utf8")] as const);
}

/** The text without its comments, so a comment may name what the code may not. */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}
