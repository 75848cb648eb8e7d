import { join, relative, isAbsolute } from "node:path";
import { readText, writeFileAtomic } from "../../adapters/files.js";
import { PACKAGE_ROOT } from "../../adapters/package-root.js";
import { renderStarter } from "../../org/config/index.js";
import type { Io } from "../io.js";
import { runInitTemplate } from "./init-template.js";

const PROMPT_FILE = join("prompts", "researcher.md");

/** `org init`: a commented starter org.yaml and researcher prompt; never overwrites without --force. */
export async function runInit(opts: { cwd: string; force?: boolean; template?: string; countGpus?: () => Promise<number> }, io: Io): Promise<number> {
  if (opts.template !== undefined) return runInitTemplate({ ...opts, template: opts.template, schema: locateSchema(opts.cwd) }, io);
  const orgFile = join(opts.cwd, "org.yaml");
  if (!opts.force && (await readText(orgFile)) !== undefined) {
    io.err(`org.yaml already exists in ${opts.cwd} — edit it, or run \`org init --force\` to replace it`);
    return 1;
  }
  const starter = renderStarter(locateSchema(opts.cwd));
  // A prompt a person already wrote is theirs; --force replaces org.yaml, not their words.
  const promptFile = join(opts.cwd, PROMPT_FILE);
  const keepPrompt = (await readText(promptFile)) !== undefined;
  await writeFileAtomic(orgFile, starter.orgYaml);
  if (!keepPrompt) await writeFileAtomic(promptFile, starter.prompt);
  io.out(keepPrompt ? `wrote org.yaml (kept the existing ${PROMPT_FILE})` : `wrote org.yaml and ${PROMPT_FILE}`);
  io.out("next: edit them, check with `org validate`, then start with `org up`");
  return 0;
}

function locateSchema(cwd: string): string {
  const schema = join(PACKAGE_ROOT, "org.schema.json");
  const fromCwd = relative(cwd, schema);
  return fromCwd.startsWith("..") || isAbsolute(fromCwd) ? schema : fromCwd;
}
