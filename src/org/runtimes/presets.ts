/** How org starts, isolates, resumes, installs and checks one agent CLI: data only, overridable from org.yaml. */
export interface RuntimePreset {
  /** argv of a fresh start; "{unattended}" expands to the unattended flags, other placeholders as in plan.ts. */
  command: string[];
  /** argv that resumes the agent's conversation after a restart; null when the CLI cannot. */
  resume: string[] | null;
  /** Flags for working without a person: no permission prompts. */
  unattended: string[];
  /** A file in the worktree the CLI reads as instructions (AGENTS.md); null when the prompt goes by a flag. */
  prompt_file: string | null;
  /** Environment variables pointed at the agent's own config folder, so parallel agents never share one mutable config. */
  home_env: string[];
  /** Credentials copied once from the user's config into the agent's folder (from: a path under ~, to: a path in the folder). */
  seed: { from: string; to: string }[];
  install: string;
  version: string[];
  /** Looks logged in when one of these variables is set or one of these files (under ~) exists. */
  login: { env: string[]; files: string[] };
  /** Where the CLI keeps conversations in the agent's folder: a resume is tried only once one exists. */
  transcripts: { dir: string; suffix: string } | null;
}

export const PRESET_NAMES = ["claude", "codex", "gemini", "opencode", "generic"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const PRESETS: Record<PresetName, RuntimePreset> = {
  // Claude Code takes a session id at start, so a restart resumes exactly that conversation.
  claude: {
    command: ["claude", "{unattended}", "--session-id", "{session_id}", "--append-system-prompt-file", "{prompt_file}", "{kickoff}"],
    resume: ["claude", "{unattended}", "--resume", "{session_id}", "--append-system-prompt-file", "{prompt_file}", "{kickoff}"],
    unattended: ["--dangerously-skip-permissions"],
    prompt_file: null,
    home_env: ["CLAUDE_CONFIG_DIR"],
    seed: [{ from: ".claude/.credentials.json", to: ".credentials.json" }],
    install: "npm install -g @anthropic-ai/claude-code",
    version: ["claude", "--version"],
    login: { env: ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"], files: [".claude/.credentials.json"] },
    transcripts: { dir: "projects", suffix: "{session_id}.jsonl" },
  },
  // Codex's CODEX_HOME is the agent's own, so "the last session" there is this agent's conversation.
  // --no-daemon: 0.169 otherwise leaves a detached app-server running after the pane dies, shared by socket.
  codex: {
    command: ["codex", "--no-daemon", "{unattended}", "{kickoff}"],
    resume: ["codex", "--no-daemon", "resume", "--last", "{unattended}", "{kickoff}"],
    unattended: ["--dangerously-bypass-approvals-and-sandbox"],
    prompt_file: "AGENTS.md",
    home_env: ["CODEX_HOME"],
    seed: [{ from: ".codex/auth.json", to: "auth.json" }, { from: ".codex/config.toml", to: "config.toml" }],
    install: "npm install -g @openai/codex",
    version: ["codex", "--version"],
    login: { env: ["OPENAI_API_KEY", "CODEX_API_KEY"], files: [".codex/auth.json"] },
    transcripts: { dir: "sessions", suffix: ".jsonl" },
  },
  gemini: {
    command: ["gemini", "{unattended}", "--prompt-interactive", "{kickoff}"],
    resume: ["gemini", "{unattended}", "--resume", "latest", "--prompt-interactive", "{kickoff}"],
    unattended: ["--yolo"],
    prompt_file: "GEMINI.md",
    home_env: ["GEMINI_CLI_HOME"],
    seed: [{ from: ".gemini/oauth_creds.json", to: ".gemini/oauth_creds.json" }, { from: ".gemini/settings.json", to: ".gemini/settings.json" }],
    install: "npm install -g @google/gemini-cli",
    version: ["gemini", "--version"],
    login: { env: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], files: [".gemini/oauth_creds.json"] },
    transcripts: { dir: ".gemini/tmp", suffix: ".json" },
  },
  // opencode keeps sessions and auth.json under $XDG_DATA_HOME/opencode.
  opencode: {
    command: ["opencode", "{unattended}", "--prompt", "{kickoff}"],
    resume: ["opencode", "{unattended}", "--continue", "--prompt", "{kickoff}"],
    unattended: [],
    prompt_file: "AGENTS.md",
    home_env: ["XDG_DATA_HOME"],
    seed: [{ from: ".local/share/opencode/auth.json", to: "opencode/auth.json" }],
    install: "npm install -g opencode-ai",
    version: ["opencode", "--version"],
    login: { env: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"], files: [".local/share/opencode/auth.json"] },
    transcripts: { dir: "opencode/storage/session", suffix: ".json" },
  },
  // Any other program: org.yaml gives its command; nothing is assumed about it.
  generic: {
    command: [],
    resume: null,
    unattended: [],
    prompt_file: null,
    home_env: [],
    seed: [],
    install: "",
    version: [],
    login: { env: [], files: [] },
    transcripts: null,
  },
};
