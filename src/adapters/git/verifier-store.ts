import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { buildLoosePack } from "./loose-pack.js";
import { pipeGit } from "./pipe.js";
import { runGit } from "./run.js";
import { readCommonDir } from "./worktree-git-dir.js";

// The store's own settings, in its config file: no hooks, no gc racing the runs, and every fetched object checked.
const STORE_CONFIG = `[gc]
\tauto = 0
[maintenance]
\tauto = false
[core]
\thooksPath = /dev/null
\tlogAllRefUpdates = false
[fetch]
\tfsckObjects = true
\twriteCommitGraph = false
[transfer]
\tfsckObjects = true
`;
// Every git call on either side: nothing of the research repo's or the agents' runs (hooks, gc, submodules).
const CALL = ["core.hooksPath=/dev/null", "gc.auto=0", "maintenance.auto=false", "fetch.writeCommitGraph=false"];
const FETCH = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules"];
const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const PACK = ["pack-objects", "--revs", "--stdout", "-q", "--thin", "--delta-base-offset"];

export type StoreOpened = { kind: "opened" | "made" } | { kind: "remade"; brokenTo: string };

/**
 * The verifier's own bare repository at `store`: opened when git can read it, else made afresh (a broken one moved
 * aside, never deleted). It starts empty: commits come in through admitCommits, checked on the way.
 */
export async function openVerifierStore(store: string): Promise<StoreOpened> {
  const found = await stat(store).then(() => true, () => false);
  const bare = found && (await runGit(["rev-parse", "--is-bare-repository"], { cwd: store, config: CALL })).stdout;
  if (bare && bare.trim() === "true") return { kind: "opened" };
  const brokenTo = `${store}.broken-${Date.now()}`;
  if (found) await rename(store, brokenTo);
  const fresh = `${store}.new-${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  await must(["init", "--quiet", "--bare", fresh], join(fresh, ".."));
  await appendFile(join(fresh, "config"), STORE_CONFIG);
  await rename(fresh, store);
  return found ? { kind: "remade", brokenTo } : { kind: "made" };
}

/** Whether the store took `commit` in full before: a ref of its own names it (refs move only after a whole fetch). */
async function isAdmitted(store: string, commit: string): Promise<boolean> {
  // Its content, not only its name: a ref file cut short by a crash is taken again, never believed.
  const text = await readFile(join(store, "refs", "verified", commit), "utf8").catch(() => "");
  return text === `${commit}\n`;
}

/**
 * Takes `commits` (full hashes) and all they hold from `repo` into the store, each named by a ref of its own. The
 * pipe runs git's pack-objects and unpack-objects (a fetch, index-pack): every object is named by its content on
 * arrival, so one rewritten in the shared store no longer has the name a tree gives it and the admit fails; what the
 * store has is never taken again. `depth` 1 takes one commit's tree alone (the base at `org up`). Returns why git
 * refused; disk full throws.
 */
export async function admitCommits(store: string, repo: string, commits: string[], depth?: number)
  : Promise<string | undefined> {
  const wanted: string[] = [];
  const held: string[] = [];
  for (const commit of new Set(commits)) {
    if (!HASH.test(commit)) return `${commit} is not a full commit hash`;
    (await isAdmitted(store, commit) ? held : wanted).push(commit);
  }
  if (wanted.length === 0) return undefined;
  // The fast way first; anything it cannot do (a history below the base, a commit gone) is the fetch's to answer.
  if (!depth && (await packCommits(store, repo, wanted, [...held, ...(await readShallow(store))]))) return undefined;
  const refspecs = wanted.map((commit) => `${commit}:refs/verified/${commit}`);
  const args = [...FETCH, ...(depth ? [`--depth=${depth}`] : []), repo, ...refspecs];
  const result = await runGit(args, { cwd: store, config: CALL, timeoutMs: 600_000 });
  if (result.exitCode === 0) return undefined;
  const text = result.spawnError ?? `${result.stderr}${result.stdout}`;
  if (/No space left on device/i.test(text)) {
    throw new OrgError(`the verifier's object store ${store}: no space left on device`, "disk-full");
  }
  const short = wanted.map((commit) => commit.slice(0, 7)).join(", ");
  return `${short} could not be taken into the verifier's own object store: ${fatalLines(text)}`
    + " — an object in the repo's shared store is missing or does not match its name";
}

/**
 * The fetch's work in two git processes instead of five: pack-objects in `repo` pipes what `wanted` has beyond `held`
 * (commits the store holds whole) straight into unpack-objects --strict in the store, which names every object by its
 * content and checks each link of each (the store's own objects are complete: each came in this way, or fetched).
 * Loose objects, as git's own receive takes a small push: no pack and index to fsync on every candidate's path, and no
 * pack more per admit for every later git process in the store to search. The refs move only after the whole pack is
 * in. False when it could not: nothing is named then.
 */
async function packCommits(store: string, repo: string, wanted: string[], held: string[]): Promise<boolean> {
  // Without a commit both sides hold, the pack would be the whole history: the fetch negotiates better.
  if (held.length === 0) return false;
  if (await unpackLoose(store, repo, wanted, held)) return nameCommits(store, wanted);
  const revs = [...wanted, ...held.map((commit) => `^${commit}`)].map((rev) => `${rev}\n`).join("");
  const [packed, indexed] = await pipeGit(
    // Into a pipe whose other side inflates and resolves it all: no delta search, nothing compressed on the way.
    { args: [...PACK, "--window=0", "--compression=0"], cwd: repo, input: revs },
    { args: ["unpack-objects", "-q", "--strict"], cwd: store }, CALL, 600_000,
  );
  if (packed.exitCode !== 0 || indexed.exitCode !== 0) return false;
  return nameCommits(store, wanted);
}

/**
 * The commits' new objects read loose by node, whose pack goes straight into unpack-objects --strict: one git process,
 * where the pipe is two. The store checks it as it checks pack-objects' (each object named by its content, every link
 * in the pack or the store). False when the objects are not plain loose ones, or the store refused the pack: the pipe
 * then tries, and the fetch after it says why.
 */
async function unpackLoose(store: string, repo: string, wanted: string[], held: string[]): Promise<boolean> {
  const common = await readCommonDir(repo).catch(() => undefined);
  if (!common) return false;
  const pack = await buildLoosePack({ repo: join(common, "objects"), store, wanted, held });
  if (!pack) return false;
  const call = { cwd: store, config: CALL, timeoutMs: 600_000, input: pack };
  return (await runGit(["unpack-objects", "-q", "--strict"], call)).exitCode === 0;
}

/**
 * Each ref as the loose file git would write (the store's refs are files: made by org, never packed, gc off), by an
 * atomic rename: one git process less on every candidate's path. A store of reftable refs gets git's update-ref.
 */
async function nameCommits(store: string, commits: string[]): Promise<boolean> {
  if (await stat(join(store, "reftable")).then(() => true, () => false)) {
    const updates = commits.map((commit) => `update refs/verified/${commit} ${commit}\n`).join("");
    const call = { cwd: store, config: CALL, timeoutMs: 120_000, input: updates };
    return (await runGit(["update-ref", "--stdin"], call)).exitCode === 0;
  }
  const dir = join(store, "refs", "verified");
  await mkdir(dir, { recursive: true });
  for (const commit of commits) {
    // A dot-name is no ref name: git never lists the file while it is written.
    const temporary = join(dir, `.${commit}.${process.pid}.new`);
    try {
      await writeFile(temporary, `${commit}\n`);
      await rename(temporary, join(dir, commit));
    } catch (error) {
      await rm(temporary, { force: true });
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") {
        throw new OrgError(`the verifier's object store ${store}: no space left on device`, "disk-full");
      }
      return false;
    }
  }
  return true;
}

/** The store's shallow commits (the base, taken alone): held whole though their parents are not. */
async function readShallow(store: string): Promise<string[]> {
  const text = await readFile(join(store, "shallow"), "utf8").catch(() => "");
  return text.split("\n").filter((line) => HASH.test(line));
}

/** A commit the verifier made in its store (a rebase, a stack), kept there by a ref and copied into `repo`. */
export async function publishCommit(store: string, repo: string, commit: string): Promise<void> {
  await must(["update-ref", `refs/verified/${commit}`, commit], store);
  await must([...FETCH, store, commit], repo);
}

async function must(args: string[], cwd: string): Promise<string> {
  const result = await runGit(args, { cwd, config: CALL, timeoutMs: 120_000 });
  if (result.exitCode === 0) return result.stdout;
  const why = fatalLines(`${result.stderr}${result.stdout}`);
  throw new OrgError(`git ${args.join(" ")} in ${cwd} failed: ${why}`, "git");
}

// git's fatal and error lines are the part a person needs; joined, as one alone may say only "index-pack failed".
function fatalLines(text: string): string {
  const lines = text.split("\n").filter((line) => /^(fatal|error): /.test(line)).slice(0, 3);
  return lines.length > 0 ? lines.join("; ") : text.trim().split("\n").pop() || "no output";
}
