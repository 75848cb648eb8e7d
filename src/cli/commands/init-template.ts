import { join } from "node:path";
import { suggestFix } from "../../org/config/did-you-mean.js";
import { renderTemplate, TEMPLATES, type TemplateName } from "../../org/config/templates.js";
import { OrgError } from "../../org/errors.js";
import { readText, writeFileAtomic } from "../../adapters/files.js";
import { createGpuProbe } from "../../adapters/gpu-probe.js";
import { processRunner } from "../../adapters/process.js";
import { PACKAGE_ROOT } from "../../adapters/package-root.js";
import type { Io } from "../io.js";

const PACKAGE_PROMPTS = join(PACKAGE_ROOT, "prompts");

export interface InitTemplateOptions {
  cwd: string;
  force?: boolean;
  template: string;
  /** Where editors find org.schema.json, as the plain starter writes it. */
  schema: string;
  /** How many GPUs this machine has: autoresearch runs one researcher per GPU. */
  countGpus?: () => Promise<number>;
}

/** `org init --template <name>`: org.yaml for a topology and a working prompt per role; prompts a person wrote are kept. */
export async function runInitTemplate(opts: InitTemplateOptions, io: Io): Promise<number> {
  if (!(TEMPLATES as readonly string[]).includes(opts.template)) {
    io.err(`unknown template "${opts.template}" — ${suggestFix(opts.template, TEMPLATES, `use one of ${TEMPLATES.join(", ")}`)}`);
    return 1;
  }
  const name = opts.template as TemplateName;
  const orgFile = join(opts.cwd, "org.yaml");
  if (!opts.force && (await readText(orgFile)) !== undefined) {
    io.err(`org.yaml already exists in ${opts.cwd} — edit it, or run \`org init --template ${name} --force\` to replace it`);
    return 1;
  }
  const gpus = name === "autoresearch" ? await (opts.countGpus ?? countGpus)() : 0;
  const template = renderTemplate(name, { schema: opts.schema, gpus });
  const files: Record<string, string> = { ...template.files };
  for (const prompt of template.prompts) {
    const text = await readText(join(PACKAGE_PROMPTS, prompt));
    if (text === undefined) throw new OrgError(`prompts/${prompt} is missing from the org package in ${PACKAGE_PROMPTS} — reinstall org`, "package");
    files[join("prompts", prompt)] = text;
  }
  const written = ["org.yaml"];
  const kept: string[] = [];
  await writeFileAtomic(orgFile, template.orgYaml);
  for (const [path, text] of Object.entries(files)) {
    // A file a person already wrote is theirs; --force replaces org.yaml, not their words.
    if ((await readText(join(opts.cwd, path))) !== undefined) kept.push(path);
    else {
      await writeFileAtomic(join(opts.cwd, path), text);
      written.push(path);
    }
  }
  io.out(`wrote ${joinAnd(written)}${kept.length > 0 ? ` (kept the existing ${joinAnd(kept)})` : ""}`);
  io.out(`next: ${name === "pipeline" ? "write your goal in goal.md, " : ""}edit them, check with \`org validate\`, then start with \`org up\``);
  return 0;
}

async function countGpus(): Promise<number> {
  const probed = await createGpuProbe(processRunner).probe();
  return "error" in probed ? 0 : probed.length;
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
