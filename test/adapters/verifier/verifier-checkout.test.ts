// A slot's checkout kept between runs: its clean may start early, beside the commit's admit, and the checkout is still
// exactly the commit; a checkout whose .git is no longer the store's is never cleaned by git (its config would run).
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { processRunner, type Runner } from "../../../src/adapters/process.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { prepareVerifierStore } from "../../../src/adapters/verifier/prepare-store.js";
import { createSlotCheckouts } from "../../../src/adapters/verifier/slot-checkouts.js";
import { verifierStorePaths } from "../../../src/domain/paths.js";
import { createRepo, git, removeDir } from "../../helpers/temp-repo.js";

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

/** A repo of two commits (the second drops old.txt, adds new.txt), the store holding the first; git calls logged. */
async function createSlot(beforeGit: (command: string[]) => void = () => {}) {
  root = createRepo({ "a.txt": "1\n", "old.txt": "old\n", ".gitignore": "ignored/\n" });
  const base = git(root, ["rev-parse", "HEAD"]).trim();
  git(root, ["rm", "-q", "old.txt"]);
  writeFileSync(join(root, "new.txt"), "new\n");
  writeFileSync(join(root, "a.txt"), "2\n");
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", "second"]);
  const second = git(root, ["rev-parse", "HEAD"]).trim();
  const state = join(root, "state");
  await prepareVerifierStore({ repo: root, state, base, protected: [] });
  const calls: string[] = [];
  const runner: Runner = {
    run: (argv, options) => {
      const command = argv.slice(argv.indexOf("git") + 1);
      beforeGit(command);
      calls.push(command.filter((arg, index) => arg !== "-c" && command[index - 1] !== "-c").join(" "));
      return processRunner.run(argv, options);
    },
  };
  const port = createVerifierPort({ repo: root, state, baseCommit: base, runner });
  return { port, base, second, calls };
}

// What a run can leave: an untracked file, an ignored folder, a nested repo, an edited tracked file.
function leaveDirt(checkout: string) {
  writeFileSync(join(checkout, "untracked.txt"), "x\n");
  mkdirSync(join(checkout, "ignored"));
  writeFileSync(join(checkout, "ignored", "cache"), "x\n");
  git(join(checkout), ["init", "-q", "nested"]);
  writeFileSync(join(checkout, "a.txt"), "edited by the run\n");
}

test("a clean started early, then the checkout: exactly the commit, one git process left after the admit", async () => {
  const { port, base, second, calls } = await createSlot();
  leaveDirt(await port.prepareCheckout("cpu0", base));
  calls.length = 0;
  port.startClean!("cpu0");
  expect(await port.admit([second])).toBeUndefined();
  const checkout = await port.prepareCheckout("cpu0", second);
  expect(calls).toEqual(["clean -ffdx --quiet", `checkout --quiet --force --detach ${second}`]);
  expect(git(checkout, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe("");
  expect(readFileSync(join(checkout, "a.txt"), "utf8")).toBe("2\n");
  expect(existsSync(join(checkout, "old.txt"))).toBe(false);
  expect(existsSync(join(checkout, "nested"))).toBe(false);
  // With no early clean the checkout cleans after itself, as before.
  leaveDirt(checkout);
  calls.length = 0;
  await port.prepareCheckout("cpu0", second);
  expect(calls).toEqual([`checkout --quiet --force --detach ${second}`, "clean -ffdx --quiet"]);
  expect(git(checkout, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe("");
});

test("a checkout whose .git a run replaced: the early clean runs no git in it, the slot is made afresh", async () => {
  const { port, base, calls } = await createSlot();
  const checkout = await port.prepareCheckout("cpu0", base);
  // A git dir of the run's own, whose config would run a program for any git command in the folder.
  const marker = join(root!, "ran");
  rmSync(join(checkout, ".git"));
  git(checkout, ["init", "-q"]);
  writeFileSync(join(checkout, ".git", "config"), `[core]\n\tfsmonitor = "touch ${marker}; false"\n`, { flag: "a" });
  calls.length = 0;
  port.startClean!("cpu0");
  const again = await port.prepareCheckout("cpu0", base);
  expect(existsSync(marker)).toBe(false);
  // Made afresh, then cleaned after its checkout: no git ran in the folder while its .git was the run's.
  expect(calls).toEqual(["worktree prune", `worktree add --quiet --force --detach ${again} ${base}`,
    `checkout --quiet --force --detach ${base}`, "clean -ffdx --quiet"]);
  expect(git(again, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe("");
});

test.each(["a link to a file", "a file naming the git dir through a link"])(
  "a checkout whose .git the run made %s an agent may flip: not believed, no git ran by it, made afresh",
  async (how) => {
    // The agent's own folder, outside the run's sandbox: the .git it names, and a git dir whose config runs a program.
    let flip = () => {};
    const { port, base, calls } = await createSlot((command) => command.includes("clean") && flip());
    const checkout = await port.prepareCheckout("cpu0", base);
    const agent = join(root!, "agent");
    const marker = join(root!, "ran");
    git(root!, ["init", "-q", join(agent, "evil")]);
    writeFileSync(join(agent, "evil", ".git", "config"), `[core]\n\tfsmonitor = "touch ${marker}; false"\n`, {
      flag: "a",
    });
    const honest = readFileSync(join(checkout, ".git"), "utf8");
    const named = /^gitdir: (.+)$/m.exec(honest)![1]!;
    rmSync(join(checkout, ".git"));
    if (how === "a link to a file") {
      writeFileSync(join(agent, "dotgit"), honest);
      symlinkSync(join(agent, "dotgit"), join(checkout, ".git"));
      // The agent wins the race: the file says the store's git dir when org reads it, its own when git does.
      flip = () => writeFileSync(join(agent, "dotgit"), `gitdir: ${join(agent, "evil", ".git")}\n`);
    } else {
      symlinkSync(named, join(agent, "gitdir"));
      writeFileSync(join(checkout, ".git"), `gitdir: ${join(agent, "gitdir")}\n`);
      flip = () => {
        rmSync(join(agent, "gitdir"));
        symlinkSync(join(agent, "evil", ".git"), join(agent, "gitdir"));
      };
    }
    calls.length = 0;
    port.startClean!("cpu0");
    const again = await port.prepareCheckout("cpu0", base);
    expect(existsSync(marker)).toBe(false);
    expect(lstatSync(join(again, ".git")).isFile()).toBe(true);
    expect(calls.slice(0, 2)).toEqual(["worktree prune", `worktree add --quiet --force --detach ${again} ${base}`]);
  },
);

// The slots alone, their git calls logged: what a run's end starts, given whether the run was sealed.
async function createSlots() {
  const { port, base, second } = await createSlot();
  // The store holds both commits, as the loop's admit leaves it before any checkout.
  expect(await port.admit([second])).toBeUndefined();
  const store = verifierStorePaths(join(root!, "state"));
  const calls: string[] = [];
  const run = async (cwd: string, args: string[]) => {
    calls.push(args.join(" "));
    const result = await processRunner.run(["git", ...args], { cwd, timeoutMs: 30_000 });
    if (result.exitCode !== 0) throw new Error(result.stderr);
  };
  const slots = createSlotCheckouts({ dir: store.dir, store: store.repo, repo: root!, git: run });
  return { slots, base, second, calls };
}

test("a sealed run's slot is cleaned as its request ends: the next only checks out, exactly the commit", async () => {
  const { slots, base, second, calls } = await createSlots();
  const checkout = await slots.prepare("cpu0", base);
  slots.noteRun(checkout, true);
  leaveDirt(checkout);
  calls.length = 0;
  slots.cleanAfterRun("cpu0");
  // The next request's own early clean finds the slot cleaned since its run: no second clean.
  slots.startClean("cpu0");
  await slots.prepare("cpu0", second);
  expect(calls).toEqual(["clean -ffdx --quiet", `checkout --quiet --force --detach ${second}`]);
  expect(git(checkout, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe("");
  expect(existsSync(join(checkout, "nested"))).toBe(false);
});

test("a run not sealed (no pid namespace of its own): nothing cleans at its end, the next checkout does", async () => {
  const { slots, base, calls } = await createSlots();
  const checkout = await slots.prepare("cpu0", base);
  slots.noteRun(checkout, true);
  slots.noteRun(checkout, false);
  leaveDirt(checkout);
  calls.length = 0;
  slots.cleanAfterRun("cpu0");
  await slots.prepare("cpu0", base);
  expect(calls).toEqual([`checkout --quiet --force --detach ${base}`, "clean -ffdx --quiet"]);
  expect(git(checkout, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe("");
});

test("the checkout walks no refs: leaving a commit no ref names behind, it says nothing", async () => {
  const { base, second } = await createSlots();
  const store = verifierStorePaths(join(root!, "state"));
  const said: string[] = [];
  const run = async (cwd: string, args: string[]) => {
    const result = await processRunner.run(["git", ...args], { cwd, timeoutMs: 30_000 });
    if (result.exitCode !== 0) throw new Error(result.stderr);
    if (args[0] === "checkout") said.push(result.stderr);
  };
  const slots = createSlotCheckouts({ dir: store.dir, store: store.repo, repo: root!, git: run });
  const checkout = await slots.prepare("cpu0", base);
  // A commit no ref names, left behind by the next checkout: git would walk every ref (one per admitted commit) to
  // warn of it, on every candidate's path.
  git(checkout, ["commit", "-q", "--allow-empty", "-m", "left behind"]);
  said.length = 0;
  await slots.prepare("cpu0", second);
  expect(said).toEqual([""]);
  expect(git(checkout, ["rev-parse", "HEAD"]).trim()).toBe(second);
});
