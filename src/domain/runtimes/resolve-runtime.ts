import { createHash } from "node:crypto";
import type { RuntimeConfig } from "../config/index.js";
import { parseDuration } from "../units/index.js";
import { PRESETS, type PresetName, type RuntimePreset } from "./runtime-presets.js";

/** A runtime with its preset and org.yaml's overrides merged: everything launch, watch and doctor need. */
export interface ResolvedRuntime extends RuntimePreset {
  preset: PresetName;
  /** argv[0] of command: what must be installed. */
  program: string;
  /** Secrets of `org up`'s environment it receives. */
  pass_env: string[];
  watch: { nudge: string; nudgeAfterMs: number; nudgesPerHour: number; answerTrust: boolean };
}

/** Preset values overridden key by key by org.yaml; a runtime with a command and no preset is generic. */
export function resolveRuntime(runtime: RuntimeConfig): ResolvedRuntime {
  const presetName: PresetName = runtime.preset ?? "generic";
  const base = PRESETS[presetName];
  const unattended = runtime.unattended ?? base.unattended;
  const trust = runtime.trust ?? base.trust;
  const flags = [...unattended, ...(runtime.answer_trust ? trust : [])];
  const resumeTemplate = runtime.resume === undefined ? base.resume : runtime.resume.length > 0 ? runtime.resume : null;
  const withProgram = (argv: string[]) =>
    (runtime.program && argv.length > 0 ? [runtime.program, ...argv.slice(1)] : argv);
  const command = expandUnattended(withProgram(runtime.command ?? base.command), flags);
  const resume = resumeTemplate && expandUnattended(withProgram(resumeTemplate), flags);
  const program = command[0] ?? "";
  return {
    preset: presetName,
    program,
    command,
    resume,
    unattended,
    trust,
    prompt_file: runtime.prompt_file === undefined ? base.prompt_file : runtime.prompt_file || null,
    home_env: runtime.home_env ?? base.home_env,
    env: { ...base.env, ...runtime.env },
    pass_env: runtime.pass_env ?? [],
    seed: runtime.seed ?? base.seed,
    install: runtime.install ?? base.install,
    // A moved program (program: ./bin/claude) is asked its version at its new place.
    version: withProgram(runtime.version ?? base.version),
    login: runtime.login ?? base.login,
    transcripts: base.transcripts,
    kickoff_on_resume: base.kickoff_on_resume,
    ...(base.relaunch_code === undefined ? {} : { relaunch_code: base.relaunch_code }),
    watch: {
      nudge: runtime.nudge,
      nudgeAfterMs: parseDuration(runtime.nudge_after),
      nudgesPerHour: runtime.nudges_per_hour,
      answerTrust: runtime.answer_trust,
    },
  };
}

/** The install hint for a missing program: the preset's command, else a generic one. */
export function installHint(resolved: Pick<ResolvedRuntime, "install" | "program">, runtimeName: string): string {
  return resolved.install || `install ${resolved.program}, or fix runtimes.${runtimeName}.command`;
}

function expandUnattended(argv: string[], flags: string[]): string[] {
  return argv.flatMap((element) => (element === "{unattended}" ? flags : [element]));
}

/** A stable conversation id per agent and org folder, UUID-shaped as Claude Code's --session-id requires. */
export function sessionIdFor(root: string, agent: string): string {
  const hex = createHash("sha256").update(`${root}\0${agent}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-`
    + `${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
