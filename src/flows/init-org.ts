import { join, relative, isAbsolute } from "node:path";
import { readText, writeFileAtomic } from "../adapters/fs/files.js";
import { PACKAGE_ROOT } from "../adapters/package-root.js";
import { readRepoListing, type ListingRead } from "../adapters/probes/repo-listing-probe.js";
import { writeTemplateFiles } from "../adapters/store/template-files.js";
import { writeSoftwareFiles } from "../adapters/store/software-files.js";
import { suggestFix } from "../domain/config/index.js";
import { proposeOrg, proposeSoftware, type OrgProposal } from "../domain/init/index.js";
import { renderStarter, TEMPLATE_NAMES, type TemplateName } from "../roles/index.js";

export const PROMPT_FILE = join("prompts", "researcher.md");

export interface InitInput {
  cwd: string;
  force?: boolean;
  template?: string;
  countGpus?: () => Promise<number>;
  /** Where agent CLIs and interpreters are looked for; this process's PATH when absent. */
  pathEnv?: string;
}

/** What `org init` wrote, or why it wrote nothing. */
export type Initialized =
  | { tag: "refused"; reason: string }
  | { tag: "guessed"; proposal: OrgProposal; keptPrompt: boolean }
  | { tag: "template"; name: TemplateName; written: string[]; kept: string[] }
  | { tag: "software"; written: string[]; kept: string[]; checks: string[] };

/** `org init`: org.yaml guessed from the repo (or a template's), and its prompts; never overwrites without force. */
export async function initOrg(input: InitInput): Promise<Initialized> {
  if (input.template !== undefined) return initTemplate({ ...input, template: input.template });
  const orgFile = join(input.cwd, "org.yaml");
  if (!input.force && (await readText(orgFile)) !== undefined) {
    return refuse(`org.yaml already exists in ${input.cwd} — edit it, or run \`org init --force\` to replace it`);
  }
  const { countGpus, pathEnv } = input;
  const read = await readRepoListing(input.cwd, {
    ...(countGpus ? { countGpus: async () => ({ count: await countGpus() }) } : {}),
    ...(pathEnv === undefined ? {} : { pathEnv }),
  });
  if (read.kind !== "listing") return refuse(describeRefusal(read, input.cwd));
  const proposal = proposeOrg(read.listing);
  const starter = renderStarter(locateSchema(input.cwd), proposal.fields);
  // A prompt a person already wrote is theirs; --force replaces org.yaml, not their words.
  const promptFile = join(input.cwd, PROMPT_FILE);
  const keptPrompt = (await readText(promptFile)) !== undefined;
  await writeFileAtomic(orgFile, starter.orgYaml);
  if (!keptPrompt) await writeFileAtomic(promptFile, starter.prompt);
  return { tag: "guessed", proposal, keptPrompt };
}

function refuse(reason: string): Initialized {
  return { tag: "refused", reason };
}

function describeRefusal(read: Exclude<ListingRead, { kind: "listing" }>, cwd: string): string {
  switch (read.kind) {
    case "not-repo":
      return `${cwd} is not a git repository — `
        + "run `git init` and commit your code there, or run `org init` in your research repo";
    case "subfolder":
      return `${cwd} is inside the git repo ${read.top} — `
        + "run `org init` at the repo's root: edits and verify are paths from there";
    case "no-commit":
      return `${cwd} has no commit yet — `
        + "commit your code first (`git add -A && git commit -m start`): every agent branches from a commit";
  }
}

/** A topology's org.yaml and a working prompt per role; prompts a person wrote are kept. */
async function initTemplate(input: InitInput & { template: string }): Promise<Initialized> {
  if (!(TEMPLATE_NAMES as readonly string[]).includes(input.template)) {
    const names = `use one of ${TEMPLATE_NAMES.join(", ")}`;
    return refuse(`unknown template "${input.template}" — ${suggestFix(input.template, TEMPLATE_NAMES, names)}`);
  }
  const name = input.template as TemplateName | "software";
  if (!input.force && (await readText(join(input.cwd, "org.yaml"))) !== undefined) {
    const fix = `edit it, or run \`org init --template ${name} --force\` to replace it`;
    return refuse(`org.yaml already exists in ${input.cwd} — ${fix}`);
  }
  if (name === "software") return initSoftware(input);
  const schema = locateSchema(input.cwd);
  const { written, kept } = await writeTemplateFiles({ cwd: input.cwd, name, schema, countGpus: input.countGpus });
  return { tag: "template", name, written, kept };
}

/** The software template reads the repo as plain init does, since the gates run its package.json scripts. */
async function initSoftware(input: InitInput): Promise<Initialized> {
  const read = await readRepoListing(input.cwd, {
    countGpus: async () => ({ count: 0 }), ...(input.pathEnv === undefined ? {} : { pathEnv: input.pathEnv }),
  });
  if (read.kind !== "listing") return refuse(describeRefusal(read, input.cwd));
  const proposal = proposeSoftware(read.listing);
  if (proposal.kind === "refused") return refuse(`${input.cwd}: ${proposal.reason}`);
  const schema = locateSchema(input.cwd);
  const { written, kept } = await writeSoftwareFiles({ cwd: input.cwd, facts: proposal.facts, schema });
  return { tag: "software", written, kept, checks: proposal.checks };
}

function locateSchema(cwd: string): string {
  const schema = join(PACKAGE_ROOT, "org.schema.json");
  const fromCwd = relative(cwd, schema);
  return fromCwd.startsWith("..") || isAbsolute(fromCwd) ? schema : fromCwd;
}
