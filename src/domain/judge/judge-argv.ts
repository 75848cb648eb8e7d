// How each agent CLI runs once, without a person: its own non-interactive mode, the prompt as one argument.
import type { PresetName } from "../runtimes/runtime-presets.js";

/** The presets a judge can be: the four agent CLIs with a headless mode. */
export const JUDGE_PRESETS = ["claude", "codex", "gemini", "opencode"] as const;
export type JudgePreset = (typeof JUDGE_PRESETS)[number];

export function isJudgePreset(preset: PresetName | string): preset is JudgePreset {
  return (JUDGE_PRESETS as readonly string[]).includes(preset);
}

/** argv of one headless judge run: prints its machine-readable output (the answer and the run's usage) and exits. */
export function planJudgeArgv(preset: JudgePreset, program: string, prompt: string): string[] {
  switch (preset) {
    case "claude":
      return [program, "-p", "--output-format", "json", prompt];
    // Its own sandbox read-only too, for an org whose sandbox is off; stdin is /dev/null, or exec waits on it.
    case "codex":
      return [program, "exec", "--json", "--skip-git-repo-check", "--sandbox", "read-only", prompt];
    // Headless it refuses a folder not trusted (exit 55): the checkout is the verifier's own.
    case "gemini":
      return [program, "--skip-trust", "--output-format", "json", "--prompt", prompt];
    case "opencode":
      return [program, "run", "--format", "json", prompt];
  }
}
