import { join } from "node:path";
import { renderTemplate, type TemplateName } from "../../roles/index.js";
import { OrgError } from "../../domain/errors.js";
import { readText, writeFileAtomic } from "../fs/files.js";
import { probeGpus } from "../probes/repo-listing-probe.js";
import { PACKAGE_ROOT } from "../package-root.js";

const PACKAGE_PROMPTS = join(PACKAGE_ROOT, "prompts");

export interface TemplateFilesOptions {
  cwd: string;
  name: TemplateName;
  /** Where editors find org.schema.json, as the plain starter writes it. */
  schema: string;
  /** How many GPUs this machine has: autoresearch runs one researcher per GPU. */
  countGpus?: () => Promise<number>;
}

/** org.yaml for a topology (always written) and a working prompt per role; prompts a person wrote are kept. */
export async function writeTemplateFiles(opts: TemplateFilesOptions): Promise<{ written: string[]; kept: string[] }> {
  const gpus = opts.name === "autoresearch" ? await (opts.countGpus ?? countGpus)() : 0;
  const template = renderTemplate(opts.name, { schema: opts.schema, gpus });
  const files: Record<string, string> = { ...template.files };
  for (const prompt of template.prompts) {
    const text = await readText(join(PACKAGE_PROMPTS, prompt));
    if (text === undefined) throw new OrgError(
      `prompts/${prompt} is missing from the org package in ${PACKAGE_PROMPTS} — reinstall org`, "package",
    );
    files[join("prompts", prompt)] = text;
  }
  const written = ["org.yaml"];
  const kept: string[] = [];
  await writeFileAtomic(join(opts.cwd, "org.yaml"), template.orgYaml);
  for (const [path, text] of Object.entries(files)) {
    // A file a person already wrote is theirs; --force replaces org.yaml, not their words.
    if ((await readText(join(opts.cwd, path))) !== undefined) kept.push(path);
    else {
      await writeFileAtomic(join(opts.cwd, path), text);
      written.push(path);
    }
  }
  return { written, kept };
}

async function countGpus(): Promise<number> {
  return (await probeGpus()).count;
}
