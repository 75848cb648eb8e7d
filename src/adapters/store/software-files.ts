import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { renderSoftwareYaml, type SoftwareFacts } from "../../roles/index.js";
import { readText, writeFileAtomic } from "../fs/files.js";
import { PACKAGE_ROOT } from "../package-root.js";

const SHIPPED = join(PACKAGE_ROOT, "templates", "software");
/** The files the software template starts with, by their path in the repo and in the package's templates/software. */
const FILES = ["goal.md", "prompts/planner.md", "prompts/generator.md", "prompts/evaluator.md", "eval/rubric.md",
  "gates/script.mjs", "gates/browser.mjs"];

/** org.yaml (always written) and the template's files; a file a person already has is kept. */
export async function writeSoftwareFiles(opts: { cwd: string; facts: SoftwareFacts; schema: string }): Promise<{
  written: string[]; kept: string[];
}> {
  const texts: [string, string][] = [];
  for (const file of FILES) {
    const text = await readText(join(SHIPPED, file));
    if (text === undefined) {
      throw new OrgError(`${file} is missing from the org package in ${SHIPPED} — reinstall org`, "package");
    }
    texts.push([file, text]);
  }
  await writeFileAtomic(join(opts.cwd, "org.yaml"), renderSoftwareYaml(opts.facts, opts.schema));
  const written = ["org.yaml"];
  const kept: string[] = [];
  for (const [file, text] of texts) {
    // A file a person already wrote is theirs; --force replaces org.yaml, not their words.
    if ((await readText(join(opts.cwd, file))) !== undefined) kept.push(file);
    else {
      await writeFileAtomic(join(opts.cwd, file), text);
      written.push(file);
    }
  }
  return { written, kept };
}
