// verify.judge's hands: its CLI's own config folder, the prompt from the checkout's rubric and references, one run.
import { join } from "node:path";
import type { JudgeConfig, RuntimeConfig } from "../../domain/config/index.js";
import type { CommandOutcome, JudgeRunOutcome, RunCommandOptions } from "../../domain/experiments/verifier-port.js";
import { isJudgePreset, planJudgeArgv, readJudgeOutput, renderJudgePrompt } from "../../domain/judge/index.js";
import type { JudgedWork, ShownFile } from "../../domain/judge/index.js";
import { OrgError } from "../../domain/errors.js";
import { pickEnv } from "../../domain/lifecycle/secrets.js";
import { mergeJson, parseStateFile, planConfigState } from "../../domain/runtimes/config-state.js";
import { resolveRuntime, type ResolvedRuntime } from "../../domain/runtimes/resolve-runtime.js";
import { filesPort } from "../fs/files-port.js";
import { readText } from "../fs/files.js";
import { readUntrusted } from "../fs/untrusted.js";

export type RunJudge = (work: JudgedWork, options: Omit<RunCommandOptions, "env">) => Promise<JudgeRunOutcome>;

/**
 * Runs the judge headless in `cwd`: the rubric and references read there (protected, so the base's), the prompt
 * org's own. Its CLI keeps its config in a folder per slot under `homes` (runs at once never share a CLI's database),
 * made once with the user's credentials as an agent's folder is.
 */
export function createJudgeRun(opts: {
  judge: JudgeConfig; runtime: RuntimeConfig; homes: string;
  runCommand: (argv: string[], options: RunCommandOptions) => Promise<CommandOutcome>;
  /** Where the user's own config lives (credentials seeded from it); the daemon's HOME by default. */
  userHome?: string;
}): RunJudge {
  const resolved = resolveRuntime(opts.runtime);
  const preset = resolved.preset;
  if (!isJudgePreset(preset)) {
    throw new OrgError(`verify.judge.runtime has no headless mode (preset ${preset})`, "judge");
  }
  const userHome = opts.userHome ?? process.env.HOME ?? "";
  const prepared = new Map<string, Promise<void>>();
  const { good, bad } = opts.judge.references;
  return async (work, options) => {
    const home = join(opts.homes, options.run.slot);
    const env = judgeEnv(resolved, home);
    if (!prepared.has(home)) prepared.set(home, prepareJudgeHome(resolved, home, env, userHome));
    await prepared.get(home);
    const read = (path: string) => readShown(options.cwd, path);
    const [rubric, goodFiles, badFiles] = await Promise.all([
      read(opts.judge.rubric), Promise.all(good.map(read)), Promise.all(bad.map(read)),
    ]);
    // At calibration a reference is the work: shown beside itself it would only be matched, not judged.
    const others = (files: ShownFile[]) =>
      files.filter((file) => work.kind !== "reference" || file.path !== work.file.path);
    const references = { good: others(goodFiles), bad: others(badFiles) };
    const prompt = renderJudgePrompt({ rubric, weights: opts.judge.dimensions, references, work });
    const argv = planJudgeArgv(preset, resolved.program, prompt);
    const outcome = await opts.runCommand(argv, { ...options, env, judgeHome: home });
    const raw = (await readText(options.logFile).catch(() => undefined)) ?? "";
    const output = readJudgeOutput(preset, raw, await readConfiguredModel(preset, home));
    return { ...outcome, cli: preset, output };
  };
}

/** The runtime's env and its declared secrets, every config variable (and HOME) pointed at the judge's folder. */
function judgeEnv(resolved: ResolvedRuntime, home: string): Record<string, string> {
  const homes = Object.fromEntries(resolved.home_env.map((name) => [name, home]));
  return { ...resolved.env, ...pickEnv(process.env, resolved.pass_env), ...homes, HOME: home };
}

async function prepareJudgeHome(
  resolved: ResolvedRuntime, home: string, env: Record<string, string>, userHome: string,
): Promise<void> {
  await filesPort.mkdir(home);
  // The user's config as the judge's CLI finds it at home: opencode reads ~/.config, codex and gemini their folders.
  for (const seed of resolved.seed) {
    if (!userHome) break;
    const present = await readUntrusted(home, join(home, seed.to)).then((text) => text !== undefined, () => true);
    const text = present ? undefined : await filesPort.readText(join(userHome, seed.from));
    if (text !== undefined) await filesPort.writeUntrusted(home, join(home, seed.to), text);
  }
  for (const patch of planConfigState(resolved.preset, { worktree: home, answerTrust: false, env })) {
    const path = join(home, patch.file);
    const current = parseStateFile(await readUntrusted(home, path).catch(() => undefined));
    if (current === null) continue;
    await filesPort.writeUntrusted(home, path, `${JSON.stringify(mergeJson(current, patch.set), null, 2)}\n`);
  }
}

async function readShown(checkout: string, path: string): Promise<ShownFile> {
  const text = await readUntrusted(checkout, join(checkout, path)).catch(() => undefined);
  if (text === undefined) throw new OrgError(`the judge's ${path} is not in the checkout`, "judge");
  return { path, text };
}

/**
 * The model of a CLI whose headless output names none, from the config the judge's folder holds (the user's, seeded):
 * Codex's config.toml `model`, opencode's opencode.json `model` (provider/model: the model, as its messages name it).
 */
async function readConfiguredModel(preset: string, home: string): Promise<string | undefined> {
  const read = (path: string) => readUntrusted(home, join(home, path)).catch(() => undefined);
  if (preset === "codex") {
    const toml = (await read("config.toml")) ?? "";
    // Top-level keys come before the first [table].
    const top = toml.split(/^\[/m)[0] ?? "";
    return /^model\s*=\s*"([^"]+)"/m.exec(top)?.[1];
  }
  if (preset !== "opencode") return undefined;
  try {
    const config = (await read(".config/opencode/opencode.json")) ?? "{}";
    const model: unknown = (JSON.parse(config) as { model?: unknown }).model;
    return typeof model === "string" ? model.slice(model.indexOf("/") + 1) : undefined;
  } catch {
    return undefined;
  }
}
