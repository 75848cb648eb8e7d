// The README and docs/: every command and option a table shows is one `org --help` knows, every local link and
// anchor resolves, and the README stays an entry point with the test command CI runs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

const ROOT = resolve(import.meta.dirname, "..");
const DOCS = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
const DOC_FILES = ["README.md", ...DOCS];
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

async function helpOf(args: string[]): Promise<string> {
  const out: string[] = [];
  await main([...args, "--help"], { out: (s) => out.push(s), err: (s) => out.push(s) });
  return out.join("\n");
}

/** A command's help with its subcommands' (`contract draft`, `program show`), where its options are listed. */
async function optionsHelpOf(command: string): Promise<string> {
  const own = await helpOf([command]);
  const commandsPart = own.split(/^Commands:$/m)[1] ?? "";
  const subs = [...commandsPart.matchAll(/^ {2}(\w[\w-]*)/gm)].map((m) => m[1]!).filter((s) => s !== "help");
  return [own, ...(await Promise.all(subs.map((sub) => helpOf([command, sub]))))].join("\n");
}

/** The first cell of each `| \`org …\` |` row: the command and the flags it shows. */
function tableCommands(markdown: string): { row: string; command: string; flags: string[] }[] {
  return markdown.split("\n").filter((line) => line.startsWith("| `org ")).map((line) => {
    const cell = line.slice(2).split(/(?<!\\) \| /)[0]!;
    const command = /^`org (\w[\w-]*)/.exec(cell)![1]!;
    const shown = cell.slice(`\`org ${command}`.length);
    const flags = [...shown.matchAll(/(?<![\w<.-])(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
    return { row: cell, command, flags };
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
}

describe("README and docs", () => {
  it("shows only commands and options that `org --help` knows, and the README lists every command", async () => {
    const listed = [...(await helpOf([])).matchAll(/^ {2}(\w[\w-]*)(?= )/gm)].map((m) => m[1]!);
    expect(listed).toContain("submit");
    const unknown: string[] = [];
    for (const file of ["README.md", "docs/commands.md"]) {
      for (const { row, command, flags } of tableCommands(read(file))) {
        if (!listed.includes(command)) { unknown.push(`${file}: ${row}: no command ${command}`); continue; }
        const help = await optionsHelpOf(command);
        const missing = flags.filter((flag) => !new RegExp(`(^|[ ,])${flag}\\b`, "m").test(help));
        unknown.push(...missing.map((flag) => `${file}: ${row}: ${flag}`));
      }
    }
    expect(unknown).toEqual([]);
    const inReadme = new Set(tableCommands(read("README.md")).map((row) => row.command));
    expect(listed.filter((command) => !inReadme.has(command))).toEqual([]);
  });

  it("has no local link to a missing file or heading", () => {
    const broken: string[] = [];
    for (const file of DOC_FILES) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split("#");
        const linked = path ? join(dirname(file), path) : file;
        if (!existsSync(join(ROOT, linked))) { broken.push(`${file}: ${target}`); continue; }
        const headings = [...read(linked).matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]!));
        if (anchor && !headings.includes(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps the README short, with `npm test` (what .ci/run runs) as its test command", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(260);
    expect(readme).toMatch(/^```sh\nnpm test {2,}#/m);
    expect(read(".ci/run")).toMatch(/^exec npm test$/m);
  });
});
