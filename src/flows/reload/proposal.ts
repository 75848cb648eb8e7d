import { createHash } from "node:crypto";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parse } from "yaml";
import { loadConfig, type ConfigProbe, type LoadResult } from "../../domain/config/index.js";
import { agentPaths } from "../../domain/paths.js";
import { configProbe } from "../../adapters/probes/config.js";
import { pathExists, readJson, readText, writeFileAtomic, writeJsonAtomic } from "../../adapters/fs/files.js";
import { readUntrusted, writeUntrusted } from "../../adapters/fs/untrusted.js";
import { filesPort } from "../../adapters/fs/files-port.js";
import { diffFilesNoIndex } from "../../adapters/git/refs.js";
import { isFields, isString } from "../../domain/json-fields.js";

/**
 * A meta agent's editable copy of the org's config: org.yaml and the prompts, at their paths relative to the org
 * folder. The agent writes it: every file there is read and written through adapters/fs/untrusted, never
 * through a link.
 */
export function proposalDir(state: string, agent: string): string {
  return agentPaths(state, agent).proposal;
}

function baseFile(state: string, agent: string): string {
  return join(agentPaths(state, agent).dir, "proposal-base.json");
}

/** The same content hash for the same files: the org's config as a meta agent's copy started from it. */
export async function hashFiles(dir: string, files: string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [...files].sort()) hash.update(`${file}\0${(await readText(join(dir, file))) ?? "\0missing"}\0`);
  return hash.digest("hex");
}

/** Copy the org's config files into the agent's copy (overwriting it) and remember what it started from. */
export async function seedProposal(root: string, state: string, agent: string, files: string[]): Promise<void> {
  const dir = proposalDir(state, agent);
  for (const file of files) {
    const text = await readText(join(root, file));
    if (text !== undefined) await writeUntrusted(dir, join(dir, file), text);
  }
  await writeJsonAtomic(baseFile(state, agent), { hash: await hashFiles(root, files) });
}

/**
 * The hash of the org's config the agent's copy started from; undefined when none, or proposal-base.json is unreadable
 * or of another shape: the proposal is then refused as made from a config since changed, and the copy seeded afresh.
 */
export async function readProposalBase(state: string, agent: string): Promise<string | undefined> {
  const value = await readJson(baseFile(state, agent)).catch(() => undefined);
  return isFields(value) && isString(value.hash) ? value.hash : undefined;
}

export async function hasProposal(state: string, agent: string): Promise<boolean> {
  const dir = proposalDir(state, agent);
  // A link there counts as a copy, so loading it refuses it by name.
  return readUntrusted(dir, join(dir, "org.yaml")).then((text) => text !== undefined, () => true);
}

/**
 * Load the copy's org.yaml as if it stood in the org folder: repo and base resolve from there, but every
 * prompt it names inside the folder must be in the copy, so a prompt deleted from the copy is missing.
 */
export async function loadProposal(root: string, dir: string): Promise<LoadResult & { text: string }> {
  const text = (await readUntrusted(dir, join(dir, "org.yaml"))) ?? "";
  const prompts = new Set(listPromptPaths(text)
    .map((prompt) => resolve(root, prompt))
    .filter((path) => insideOf(root, path)));
  const probe: ConfigProbe = {
    ...configProbe,
    exists:
      (path) => (prompts.has(path) ? existsInCopy(dir, join(dir, relative(root, path))) : configProbe.exists(path)),
  };
  return { ...(await loadConfig({ file: "org.yaml", dir: root, text }, probe)), text };
}

/** A role's template as the copy has it (a prompt outside the org folder is read where it is). */
export function readProposalTemplate(root: string, dir: string): (prompt: string) => Promise<string | undefined> {
  return (prompt) => {
    const path = resolve(root, prompt);
    return insideOf(root, path) ? readUntrusted(dir, join(dir, relative(root, path))) : readText(path);
  };
}

/** Files whose copy differs from the org's; a file missing from the copy is no change (a meta edit never deletes). */
export async function findChangedFiles(root: string, dir: string, files: string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files) {
    const proposed = await readUntrusted(dir, join(dir, file));
    if (proposed !== undefined && proposed !== (await readText(join(root, file)))) changed.push(file);
  }
  return changed;
}

/** `git diff --no-index` of each changed file, org's side first, labelled with its path. */
export async function diffFiles(root: string, dir: string, files: string[]): Promise<string> {
  const parts: string[] = [];
  // git would follow a link in the agent's copy: it diffs the text read here, from a file in the daemon's folder.
  const proposed = join(dirname(dir), `.proposed-${process.pid}.tmp`);
  for (const file of files) {
    const before = (await pathExists(join(root, file))) ? join(root, file) : "/dev/null";
    await writeFileAtomic(proposed, (await readUntrusted(dir, join(dir, file))) ?? "");
    const diff = await diffFilesNoIndex(before, proposed).finally(() => filesPort.removeFile(proposed));
    // git names absolute paths oddly (a/tmp/x); the hunks are what matter, under our own header.
    const hunks = diff.slice(Math.max(0, diff.indexOf("\n@@") + 1)).trimEnd();
    parts.push(`--- org/${file}\n+++ proposed/${file}\n${hunks}`);
  }
  return ["```diff", ...parts, "```"].join("\n");
}

/** The copy's files over the org's own. */
export async function copyFiles(from: string, to: string, files: string[]): Promise<void> {
  for (const file of files) await writeFileAtomic(join(to, file), (await readUntrusted(from, join(from, file))) ?? "");
}

async function existsInCopy(dir: string, path: string): Promise<boolean> {
  return readUntrusted(dir, path).then((text) => text !== undefined, () => false);
}

function listPromptPaths(text: string): string[] {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch {
    return [];
  }
  const roles = (raw as { roles?: unknown } | null)?.roles;
  if (roles === null || typeof roles !== "object") return [];
  return Object.values(roles as Record<string, unknown>).flatMap((role) => {
    const prompt = (role as { prompt?: unknown } | null)?.prompt;
    return typeof prompt === "string" && prompt !== "" ? [prompt] : [];
  });
}

function insideOf(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
