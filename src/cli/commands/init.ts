import { join, relative, isAbsolute } from "node:path";
import { readText, writeFileAtomic } from "../../adapters/fs/files.js";
import { PACKAGE_ROOT } from "../../adapters/package-root.js";
import { readRepoListing, type ListingRead } from "../../adapters/probes/repo-listing-probe.js";
import { writeTemplateFiles } from "../../adapters/store/template-files.js";
import { suggestFix } from "../../domain/config/index.js";
import { proposeOrg, proposeSoftware } from "../../domain/init/index.js";
import { renderStarter, TEMPLATE_NAMES, type TemplateName } from "../../roles/index.js";
import { writeSoftwareFiles } from "../../adapters/store/software-files.js";
import { formatInitSummary } from "../../ui/init-summary.js";
import type { Io } from "../io.js";

const PROMPT_FILE = join("prompts", "researcher.md");

type InitOptions = {
  cwd: string;
  force?: boolean;
  template?: string;
  countGpus?: () => Promise<number>;
  /** Where agent CLIs and interpreters are looked for; this process's PATH when absent. */
  pathEnv?: string;
};

/** `org init`: org.yaml guessed from the repo, and a researcher prompt; never overwrites without --force. */
export async function runInit(opts: InitOptions, io: Io): Promise<number> {
  if (opts.template !== undefined) return initTemplate({ ...opts, template: opts.template }, io);
  const orgFile = join(opts.cwd, "org.yaml");
  if (!opts.force && (await readText(orgFile)) !== undefined) {
    io.err(`org.yaml already exists in ${opts.cwd} — edit it, or run \`org init --force\` to replace it`);
    return 1;
  }
  const { countGpus, pathEnv } = opts;
  const read = await readRepoListing(opts.cwd, {
    ...(countGpus ? { countGpus: async () => ({ count: await countGpus() }) } : {}),
    ...(pathEnv === undefined ? {} : { pathEnv }),
  });
  if (read.kind !== "listing") {
    io.err(describeRefusal(read, opts.cwd));
    return 1;
  }
  const proposal = proposeOrg(read.listing);
  const starter = renderStarter(locateSchema(opts.cwd), proposal.fields);
  // A prompt a person already wrote is theirs; --force replaces org.yaml, not their words.
  const promptFile = join(opts.cwd, PROMPT_FILE);
  const keepPrompt = (await readText(promptFile)) !== undefined;
  await writeFileAtomic(orgFile, starter.orgYaml);
  if (!keepPrompt) await writeFileAtomic(promptFile, starter.prompt);
  io.out(keepPrompt ? `wrote org.yaml (kept the existing ${PROMPT_FILE})` : `wrote org.yaml and ${PROMPT_FILE}`);
  for (const line of formatInitSummary(proposal)) io.out(line);
  return 0;
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

/** `org init --template <name>`: org.yaml for a topology and a working prompt per role; prompts a person wrote are kept. */
async function initTemplate(opts: InitOptions & { template: string }, io: Io): Promise<number> {
  if (!(TEMPLATE_NAMES as readonly string[]).includes(opts.template)) {
    const names = `use one of ${TEMPLATE_NAMES.join(", ")}`;
    io.err(`unknown template "${opts.template}" — ${suggestFix(opts.template, TEMPLATE_NAMES, names)}`);
    return 1;
  }
  const name = opts.template as TemplateName | "software";
  if (!opts.force && (await readText(join(opts.cwd, "org.yaml"))) !== undefined) {
    io.err(`org.yaml already exists in ${opts.cwd} — edit it, or run \`org init --template ${name} --force\` to replace it`);
    return 1;
  }
  if (name === "software") return initSoftware(opts, io);
  const { written, kept } = await writeTemplateFiles({ cwd: opts.cwd, name, schema: locateSchema(opts.cwd), countGpus: opts.countGpus });
  io.out(`wrote ${joinAnd(written)}${kept.length > 0 ? ` (kept the existing ${joinAnd(kept)})` : ""}`);
  io.out(`next: ${name === "pipeline" ? "write your goal in goal.md, " : ""}edit them, check with \`org validate\`, then start with \`org up\``);
  return 0;
}

/** `org init --template software`: reads the repo as plain init does, since the gates run its package.json scripts. */
async function initSoftware(opts: InitOptions, io: Io): Promise<number> {
  const read = await readRepoListing(opts.cwd, {
    countGpus: async () => ({ count: 0 }), ...(opts.pathEnv === undefined ? {} : { pathEnv: opts.pathEnv }),
  });
  if (read.kind !== "listing") {
    io.err(describeRefusal(read, opts.cwd));
    return 1;
  }
  const proposal = proposeSoftware(read.listing);
  if (proposal.kind === "refused") {
    io.err(`${opts.cwd}: ${proposal.reason}`);
    return 1;
  }
  const schema = locateSchema(opts.cwd);
  const { written, kept } = await writeSoftwareFiles({ cwd: opts.cwd, facts: proposal.facts, schema });
  io.out(`wrote ${joinAnd(written)}${kept.length > 0 ? ` (kept the existing ${joinAnd(kept)})` : ""}`);
  for (const check of proposal.checks) io.out(`check: ${check}`);
  io.out("next: write your goal in goal.md and the app you want in eval/rubric.md, commit everything, "
    + "check with `org validate`, then start with `org up`");
  return 0;
}

function locateSchema(cwd: string): string {
  const schema = join(PACKAGE_ROOT, "org.schema.json");
  const fromCwd = relative(cwd, schema);
  return fromCwd.startsWith("..") || isAbsolute(fromCwd) ? schema : fromCwd;
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
