/** How org starts, isolates, resumes, installs and checks one agent CLI: data only, overridable from org.yaml. */
export interface RuntimePreset {
  /**
   * argv of a fresh start; "{unattended}" expands to the unattended flags (and trust flags),
   * other placeholders as in plan.ts.
   */
  command: string[];
  /** argv that resumes the agent's conversation after a restart; null when the CLI cannot. */
  resume: string[] | null;
  /** Flags for working without a person: no permission prompts. */
  unattended: string[];
  /** Flags that trust the worktree without a dialog, added after the unattended flags when answer_trust is true. */
  trust: string[];
  /** A file in the worktree the CLI reads as instructions (AGENTS.md); null when the prompt goes by a flag. */
  prompt_file: string | null;
  /**
   * Environment variables pointed at the agent's own config folder, so parallel agents never
   * share one mutable config.
   */
  home_env: string[];
  /** Environment the CLI runs with under org; runtimes.<name>.env adds to it and overrides it key by key. */
  env: Record<string, string>;
  /**
   * Credentials copied once from the user's config into the agent's folder (from: a path under
   * ~, to: a path in the folder).
   */
  seed: { from: string; to: string }[];
  install: string;
  version: string[];
  /**
   * Looks logged in when one of these variables reaches it or one of these files (under ~) exists;
   * `without` says what it does with no login at all ("" when it needs one).
   */
  login: { env: string[]; files: string[]; without: string };
  /** Where the CLI keeps conversations in the agent's folder: a resume is tried only once one exists. */
  transcripts: { dir: string; suffix: string } | null;
  /**
   * How a resumed CLI gets its kickoff: "argv" when the resume argv's {kickoff} reaches it as the next user turn,
   * "type" when it drops it, so the daemon types the kickoff once the resumed CLI shows its prompt.
   */
  kickoff_on_resume: "argv" | "type";
  /** The exit code with which the CLI asks to be started again (after a sign-in, a trust change): a relaunch. */
  relaunch_code?: number;
}

export const PRESET_NAMES = ["claude", "codex", "gemini", "opencode", "generic"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const PRESETS: Record<PresetName, RuntimePreset> = {
  // Claude Code takes a session id at start, so a restart resumes exactly that conversation.
  // Its auto-updater otherwise runs `npm install -g @anthropic-ai/claude-code` from inside the agent's pane.
  claude: {
    command: [
      "claude", "{unattended}", "--session-id", "{session_id}", "--append-system-prompt-file", "{prompt_file}",
      "{kickoff}",
    ],
    resume: [
      "claude", "{unattended}", "--resume", "{session_id}", "--append-system-prompt-file", "{prompt_file}", "{kickoff}",
    ],
    unattended: ["--dangerously-skip-permissions"],
    // The trust and bypass-permissions answers are written into its config folder instead (config-state.ts).
    trust: [],
    prompt_file: null,
    home_env: ["CLAUDE_CONFIG_DIR"],
    env: { DISABLE_AUTOUPDATER: "1" },
    seed: [{ from: ".claude/.credentials.json", to: ".credentials.json" }],
    install: "npm install -g @anthropic-ai/claude-code",
    version: ["claude", "--version"],
    login: { env: ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"], files: [".claude/.credentials.json"], without: "" },
    transcripts: { dir: "projects", suffix: "{session_id}.jsonl" },
    // Its resumed conversation's next user turn is the kickoff (test/helpers/real-agents-suite.ts, kill -9).
    kickoff_on_resume: "argv",
  },
  // Codex's CODEX_HOME is the agent's own, so "the last session" there is this agent's conversation.
  // --no-daemon: 0.169 otherwise leaves a detached app-server running after the pane dies, shared by socket.
  // check_for_update_on_startup=false: no "update available" screen in front of an agent nobody watches.
  // allow_login_shell=false: its shell tool otherwise runs `bash -lc`, whose /etc/profile resets PATH and loses `org`.
  codex: {
    command: [
      "codex", "-c", "check_for_update_on_startup=false", "-c", "allow_login_shell=false", "--no-daemon",
      "{unattended}", "{kickoff}",
    ],
    resume: [
      "codex", "-c", "check_for_update_on_startup=false", "-c", "allow_login_shell=false", "--no-daemon", "resume",
      "--last", "{unattended}", "{kickoff}",
    ],
    unattended: ["--dangerously-bypass-approvals-and-sandbox"],
    trust: [],
    prompt_file: "AGENTS.md",
    home_env: ["CODEX_HOME"],
    env: {},
    seed: [{ from: ".codex/auth.json", to: "auth.json" }, { from: ".codex/config.toml", to: "config.toml" }],
    install: "npm install -g @openai/codex",
    version: ["codex", "--version"],
    // 0.169.0's interactive start asks to sign in even with OPENAI_API_KEY or CODEX_API_KEY set: only auth.json counts.
    login: { env: [], files: [".codex/auth.json"], without: "" },
    transcripts: { dir: "sessions", suffix: ".jsonl" },
    // Its resumed conversation's next user turn is the kickoff (test/helpers/real-agents-suite.ts, kill -9).
    kickoff_on_resume: "argv",
  },
  // "--resume latest" with no conversation starts a new one (0.61.0), where --resume <id> and a reused
  // --session-id <id> exit with an error: so no session ids here.
  gemini: {
    command: ["gemini", "{unattended}", "--prompt-interactive", "{kickoff}"],
    resume: ["gemini", "{unattended}", "--resume", "latest", "--prompt-interactive", "{kickoff}"],
    unattended: ["--yolo"],
    trust: ["--skip-trust"],
    prompt_file: "GEMINI.md",
    home_env: ["GEMINI_CLI_HOME"],
    // 0.61.0 starts itself again as a child node for a bigger heap and waits on it: ~145 MB and 0.5 CPU s an agent.
    // Without that parent, the supervisor restarts it when it exits asking for one (relaunch_code).
    env: { GEMINI_CLI_NO_RELAUNCH: "true" },
    seed: [
      { from: ".gemini/oauth_creds.json", to: ".gemini/oauth_creds.json" },
      { from: ".gemini/settings.json", to: ".gemini/settings.json" },
    ],
    install: "npm install -g @google/gemini-cli",
    version: ["gemini", "--version"],
    // GEMINI_API_KEY reaching it makes org select the key in its settings.json (config-state.ts).
    login: { env: ["GEMINI_API_KEY"], files: [".gemini/oauth_creds.json"], without: "" },
    // Chats are .gemini/tmp/<project>/chats/session-*.jsonl; logs.json beside them is no conversation.
    transcripts: { dir: ".gemini/tmp", suffix: ".jsonl" },
    // Its resumed conversation's next user turn is the kickoff (test/helpers/real-agents-suite.ts, kill -9).
    kickoff_on_resume: "argv",
    // Its exit after a sign-in or a trust change, which its own parent (turned off above) answered with a new start.
    relaunch_code: 199,
  },
  // opencode keeps auth.json and its database (every session) under $XDG_DATA_HOME/opencode.
  opencode: {
    command: ["opencode", "{unattended}", "--prompt", "{kickoff}"],
    resume: ["opencode", "{unattended}", "--continue", "--prompt", "{kickoff}"],
    unattended: ["--auto"],
    trust: [],
    prompt_file: "AGENTS.md",
    home_env: ["XDG_DATA_HOME"],
    env: { OPENCODE_DISABLE_AUTOUPDATE: "1" },
    // Its config (providers, models) too: in the sandbox its HOME is this folder, so
    // ~/.config/opencode is read from here.
    seed: [
      { from: ".local/share/opencode/auth.json", to: "opencode/auth.json" },
      { from: ".config/opencode/opencode.json", to: ".config/opencode/opencode.json" },
      { from: ".config/opencode/opencode.jsonc", to: ".config/opencode/opencode.jsonc" },
    ],
    install: "npm install -g opencode-ai",
    version: ["opencode", "--version"],
    login: {
      env: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"],
      files: [".local/share/opencode/auth.json"],
      without: "runs on OpenCode Zen's free models; `opencode auth login` adds other providers",
    },
    // The database exists from the first start, sessions or not: --continue with none starts afresh with --prompt.
    transcripts: { dir: "opencode", suffix: "opencode.db" },
    // 1.18.33 drops --prompt with --continue: typed at its prompt instead (real-agents-suite.ts, kill -9).
    kickoff_on_resume: "type",
  },
  // Any other program: org.yaml gives its command; nothing is assumed about it.
  generic: {
    command: [],
    resume: null,
    unattended: [],
    trust: [],
    prompt_file: null,
    home_env: [],
    env: {},
    seed: [],
    install: "",
    version: [],
    login: { env: [], files: [], without: "" },
    transcripts: null,
    kickoff_on_resume: "argv",
  },
};
