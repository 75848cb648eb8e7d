import { access, constants, readdir } from "node:fs/promises";
import { accessSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { OrgConfig } from "../../domain/config/index.js";
import type { LoginProbe } from "../../domain/views/doctor-checks.js";
import type { LaunchRuntime } from "../../domain/runtimes/launch.js";
import type { PresetName } from "../../domain/runtimes/runtime-presets.js";
import { installHint, resolveRuntime, type ResolvedRuntime } from "../../domain/runtimes/resolve-runtime.js";
import { isSecretName } from "../../domain/lifecycle/secrets.js";
import { processRunner, type Runner } from "../process.js";

/** What `org doctor` learns about one runtime program on this machine. */
export interface RuntimeProbe {
  name: string;
  preset: PresetName;
  program: string;
  found: boolean;
  install: string;
  /** First line of its version output, or null when it has none or failed. */
  version: string | null;
  login: LoginProbe;
}

/** Where a program may be: a path (relative to `baseDir`) is itself; a bare name is looked up on `pathEnv`. */
export function programCandidates(program: string, baseDir: string, pathEnv: string): string[] {
  return program.includes("/")
    ? [isAbsolute(program) ? program : resolve(baseDir, program)]
    : pathEnv.split(delimiter).filter(Boolean).map((dir) => join(dir, program));
}

/** The program's path: relative ones (./agents/bot.sh) run from the worktree, which mirrors the research repo. */
export async function findProgram(
  program: string, repoDir: string, pathEnv = process.env.PATH ?? "",
): Promise<string | null> {
  if (program === "") return null;
  for (const candidate of programCandidates(program, repoDir, pathEnv)) {
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/** findProgram at once, for the verifier's path to a run: a lookup on PATH is a few thread-pool round trips else. */
export function findProgramNow(program: string, repoDir: string, pathEnv = process.env.PATH ?? ""): string | null {
  if (program === "") return null;
  const runs = (candidate: string) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return programCandidates(program, repoDir, pathEnv).find(runs) ?? null;
}

/** Runtimes the roles (and the judge) use whose program is not installed, as `what — how to fix` lines for org up. */
export async function findMissingPrograms(config: OrgConfig, repoDir: string): Promise<string[]> {
  const used = new Set(Object.values(config.roles).map((role) => role.runtime));
  if (config.verify?.judge) used.add(config.verify.judge.runtime);
  const problems: string[] = [];
  for (const name of used) {
    const runtime = config.runtimes[name];
    if (!runtime || runtime.builtin) continue;
    const resolved = resolveRuntime(runtime);
    if (await findProgram(resolved.program, repoDir)) continue;
    problems.push(
      `runtimes.${name}: program "${resolved.program}" is not installed (not on PATH) — install it: `
        + `${installHint(resolved, name)}; or set runtimes.${name}.program to its path`,
    );
  }
  return problems;
}

export async function probeRuntime(
  name: string, resolved: ResolvedRuntime, repoDir: string, runner: Runner = processRunner, env = process.env,
): Promise<RuntimeProbe> {
  const path = await findProgram(resolved.program, repoDir, env.PATH ?? "");
  const install = installHint(resolved, name);
  if (!path) return {
    name, preset: resolved.preset, program: resolved.program, found: false, install, version: null,
    login: { kind: "unknown" },
  };
  // Asked in the environment it was found in (PATH) and judged by (HOME): gemini and opencode write under HOME
  // even for --version.
  const result = resolved.version.length > 0
    ? await runner.run(resolved.version, { timeoutMs: 30_000, cwd: repoDir, env })
    : undefined;
  const version = result && !result.spawnError && result.exitCode === 0
    ? result.stdout.trim().split("\n")[0] ?? null
    : null;
  return {
    name, preset: resolved.preset, program: resolved.program, found: true, install, version,
    login: await findLogin(resolved, env),
  };
}

/**
 * A key counts where it reaches the program: its runtime's env, or pass_env from ours; a credential file is
 * seeded from ~.
 */
async function findLogin(resolved: ResolvedRuntime, env: NodeJS.ProcessEnv): Promise<LoginProbe> {
  const { login } = resolved;
  if (login.env.length === 0 && login.files.length === 0 && !login.without) return { kind: "unknown" };
  const given = login.env.find((name) => resolved.env[name]);
  if (given) return { kind: "yes", how: `$${given} is set in its env` };
  const passed = login.env.find((name) => env[name] && resolved.pass_env.includes(name));
  if (passed) return { kind: "yes", how: `$${passed} is passed to it` };
  const home = env.HOME ?? "";
  for (const file of login.files) {
    if (home && (await access(join(home, file)).then(() => true, () => false))) return { kind: "yes", how: `~/${file} `
      + `exists` };
  }
  // Secret-looking variables never reach a program that does not pass them (secrets.ts); a plain one is inherited.
  const withheld = login.env.find((name) => env[name]);
  if (withheld) return isSecretName(withheld)
    ? { kind: "withheld", variable: withheld }
    : { kind: "yes", how: `$${withheld} is set` };
  return { kind: "no", without: login.without, keys: login.env };
}

/** Whether the agent's config folder holds a conversation to resume (a file ending in the preset's suffix). */
export async function hasConversation(runtime: LaunchRuntime, depth = 4): Promise<boolean> {
  if (!runtime.transcripts) return false;
  const { dir, suffix } = runtime.transcripts;
  const walk = async (folder: string, left: number): Promise<boolean> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && entry.name.endsWith(suffix))) return true;
    if (left === 0) return false;
    for (const entry of entries) {
      if (entry.isDirectory() && (await walk(join(folder, entry.name), left - 1))) return true;
    }
    return false;
  };
  return walk(dir, depth);
}
