// Reads what `org init` guesses from: the repo's committed files, a few of their texts, the programs on PATH, the GPUs.
import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { PROBED_PROGRAMS, SHARED_FOLDERS, pickFilesToRead, type RepoListing } from "../../domain/init/index.js";
import { readText } from "../fs/files.js";
import { readRepoHead } from "../git/repo-head.js";
import { processRunner } from "../process.js";
import { createGpuProbe } from "./gpu.js";
import { findProgram } from "./runtime.js";

export type ListingRead =
  | { kind: "listing"; listing: RepoListing }
  | { kind: "not-repo" }
  | { kind: "subfolder"; top: string }
  | { kind: "no-commit" };

// A text larger than this is no script to read for a metric line.
const MAX_TEXT_BYTES = 256 * 1024;

export interface ListingProbes {
  countGpus?: () => Promise<{ count: number; note?: string }>;
  pathEnv?: string;
}

/** The listing of the repo at `dir`, or why there is none to guess from. */
export async function readRepoListing(dir: string, probes: ListingProbes = {}): Promise<ListingRead> {
  const head = await readRepoHead(dir);
  if (head.kind !== "head") return head;
  const texts: Record<string, string> = {};
  for (const file of pickFilesToRead(head.files)) {
    const size = await stat(join(dir, file)).then((info) => (info.isFile() ? info.size : Infinity), () => Infinity);
    const text = size <= MAX_TEXT_BYTES ? await readText(join(dir, file)) : undefined;
    if (text !== undefined) texts[file] = text;
  }
  const pathEnv = probes.pathEnv ?? process.env.PATH ?? "";
  const programs: string[] = [];
  for (const program of PROBED_PROGRAMS) if (await findProgram(program, dir, pathEnv)) programs.push(program);
  const untracked: string[] = [];
  for (const folder of SHARED_FOLDERS) {
    const tracked = head.files.some((file) => file.startsWith(`${folder}/`));
    const isFolder = await stat(join(dir, folder)).then((info) => info.isDirectory(), () => false);
    if (!tracked && isFolder) untracked.push(folder);
  }
  const gpus = await (probes.countGpus ?? probeGpus)();
  const listing: RepoListing = {
    folder: basename(dir),
    base: head.branch ?? head.commit,
    files: head.files,
    untracked,
    texts,
    programs,
    gpus: gpus.count,
    ...(gpus.note === undefined ? {} : { gpuNote: gpus.note }),
    root: process.getuid?.() === 0,
  };
  return { kind: "listing", listing };
}

/** How many GPUs nvidia-smi lists, and why none when it failed. */
export async function probeGpus(): Promise<{ count: number; note?: string }> {
  const probed = await createGpuProbe(processRunner).probe();
  return "error" in probed ? { count: 0, note: probed.error } : { count: probed.length };
}
