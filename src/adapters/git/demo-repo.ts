// Sets up the demo research problem: demo/research/* copied into a fresh git repo with one commit on main.
import { cp, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-root.js";
import { OrgError } from "../../domain/errors.js";
import { pathExists } from "../fs/files.js";
import { processRunner, type Runner } from "../process.js";
import { runGit } from "./run.js";

// A fixed identity and no signing, so the commit works on a machine with no git config and no gpg agent.
const GIT_IDENTITY = ["user.name=org demo", "user.email=demo@org.invalid", "commit.gpgsign=false"];

/** The template folder shipped with the package. */
function demoTemplateDir(): string {
  return join(PACKAGE_ROOT, "demo", "research");
}

/** Create the demo repo in `dir` unless it already is a git repo; a second call changes nothing. */
export async function createDemoRepo(dir: string, runner: Runner = processRunner): Promise<{ created: boolean }> {
  if (await pathExists(join(dir, ".git"))) return { created: false };
  await mkdir(dir, { recursive: true });
  const template = demoTemplateDir();
  const names = (await readdir(template)).sort();
  // force: false leaves a file the user already has in dir as it is.
  for (const name of names) await cp(join(template, name), join(dir, name), { recursive: true, force: false });
  await git(runner, dir, ["init", "-q", "-b", "main"]);
  await git(runner, dir, ["add", "--", ...names]);
  await git(
    runner, dir,
    ["commit", "-q", "--no-verify", "-m", "demo research problem: prepare.mjs (fixed metric) and train.mjs"],
    GIT_IDENTITY,
  );
  return { created: true };
}

async function git(runner: Runner, cwd: string, args: string[], config: string[] = []): Promise<void> {
  const result = await runGit(args, { cwd, config, runner });
  if (result.exitCode === 0) return;
  const why = result.spawnError ?? (result.stderr.trim() || `exit code ${result.exitCode}`);
  throw new OrgError(`git ${args.join(" ")} failed in ${cwd}: ${why}`, "git");
}

