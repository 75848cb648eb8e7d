import { join } from "node:path";
import type { PresetName } from "./runtime-presets.js";
import type { ResolvedRuntime } from "./resolve-runtime.js";

/** What launch.json records about the agent CLI: how to resume it, where its config lives, how to watch it. */
export interface LaunchRuntime {
  /** The runtime's name in org.yaml, for fixes that say which entry to edit. */
  name: string;
  preset: PresetName;
  sessionId: string;
  /** The agent's own config folder, state/agents/<agent>/home. */
  home: string;
  /** argv that resumes the conversation, placeholders filled; null when the CLI cannot resume. */
  resumeArgv: string[] | null;
  /** The kickoff the daemon types once a resumed CLI shows its prompt, for a CLI that drops it on resume; else null. */
  typeOnResume?: string | null;
  /** The exit code with which the CLI asks to be started again: the supervisor does so at once. */
  relaunchCode?: number;
  /** Folder (absolute) and file-name suffix of the CLI's conversations: a resume needs one there. */
  transcripts: { dir: string; suffix: string } | null;
  /** Absolute path of the prompt file written into the worktree, or null. */
  promptFile: string | null;
  seed: { from: string; to: string }[];
  watch: ResolvedRuntime["watch"];
}

/** The env and launch.json record of one agent's runtime; `substitute` fills placeholders as for its command. */
export function describeRuntimeLaunch(
  resolved: ResolvedRuntime,
  where: { name: string; home: string; worktree: string; sessionId: string },
  substitute: (argv: string[]) => string[],
): { env: Record<string, string>; runtime: LaunchRuntime } {
  const env = { ...Object.fromEntries(resolved.home_env.map((name) => [name, where.home])), ...resolved.env };
  const transcripts = resolved.transcripts && {
    dir: join(where.home, resolved.transcripts.dir),
    suffix: resolved.transcripts.suffix.replace("{session_id}", where.sessionId),
  };
  return {
    env,
    runtime: {
      name: where.name,
      preset: resolved.preset,
      sessionId: where.sessionId,
      home: where.home,
      resumeArgv: resolved.resume && substitute(resolved.resume),
      typeOnResume: resolved.resume && resolved.kickoff_on_resume === "type"
        ? substitute(["{kickoff}"]).join(" ")
        : null,
      ...(resolved.relaunch_code === undefined ? {} : { relaunchCode: resolved.relaunch_code }),
      transcripts,
      promptFile: resolved.prompt_file && join(where.worktree, resolved.prompt_file),
      seed: resolved.seed,
      watch: resolved.watch,
    },
  };
}

/** The argv for this start: the resume argv once the CLI holds a conversation to resume, else a fresh start. */
export function chooseStartArgv(spec: { argv: string[]; runtime?: LaunchRuntime }, hasConversation: boolean): {
  argv: string[]; resumed: boolean;
} {
  const resume = spec.runtime?.resumeArgv;
  return resume && hasConversation ? { argv: resume, resumed: true } : { argv: spec.argv, resumed: false };
}
