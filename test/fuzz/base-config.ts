import { stringify } from "yaml";

/** What the valid org.yaml every mutation starts from depends on: its name and the program its agents run. */
export interface BaseOptions {
  name: string;
  /** argv[0] of the agent runtime: a fixture such as test/fixtures/bin/forever. */
  agent: string;
}

/** A valid org.yaml using every section, CPU only, whose prompts are prompts/researcher.md. */
export function baseConfig(options: BaseOptions): Record<string, unknown> {
  return {
    name: options.name,
    repo: ".",
    base: "main",
    gpus: "none",
    share: [],
    runtimes: {
      bot: { command: [options.agent, "{agent}", "{kickoff}"], restart: "on-failure", env: { FUZZ_MODE: "1" } },
      hill: { builtin: "hillclimb" },
    },
    roles: {
      chief: { prompt: "prompts/researcher.md", runtime: "bot", count: 1, kickoff: "Begin.", talks_to: [] },
      researcher: {
        prompt: "prompts/researcher.md",
        runtime: "bot",
        count: 2,
        gpu: false,
        edits: ["train.py"],
        reports_to: "chief",
      },
    },
    verify: {
      command: ["true"],
      protected: ["prepare.py"],
      metric: { name: "val_bpb", pattern: "^val_bpb:\\s*([0-9.]+)", goal: "minimize" },
      timeout: "1m",
      parallel: 1,
      repeats: 1,
      keep: { k: 2, min_delta: 0, confirm: 0 },
    },
    supervisor: { backoff: "1s", max_backoff: "30s", max_restarts: 10, healthy_after: "60s" },
    reload: { watch: true, min_interval: "60s" },
    messages: {
      max_bytes: 16384,
      inbox_max: 50,
      notes_max: 50,
      notify: true,
      idle: "1s",
      busy_timeout: "10m",
      quiet: ["verdict"],
    },
  };
}

/** YAML as a person would write it; no line folding, so a mutation's text stays on its line. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}
