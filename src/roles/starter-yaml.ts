// The starter org.yaml as text: each key with a line on what it means, and `org init`'s note on what it guessed.

const RUNTIMES_HELP =
  `# How to start agent programs. A role may name a preset, claude, codex, gemini or opencode, with no
# entry here: the preset starts that CLI unattended (no permission prompts), hands it the role's prompt,
# resumes its conversation after a restart and gives each agent a config folder of its own.
# To change a preset's keys, add an entry that names it; the entry's keys win:
#   claude: { preset: claude, env: { IS_SANDBOX: "1" } }     # claude run as root in a container
# Any other program gets a command: an argv list, never a shell string, in which these
# placeholders are replaced when they stand alone as an element:
#   {prompt_file} {kickoff} {agent} {role} {worktree} {gpu} {state} {inbox}
#   mybot: { command: [./agents/mybot.sh, "{prompt_file}", "{kickoff}"] }`;

const SUPERVISOR = `# How agent programs are restarted when they exit.
supervisor:
  backoff: 1s
  max_backoff: 30s
  max_restarts: 10
  healthy_after: 60s
`;

/** What `org init` fills in: a value per key and, where it guessed, a note saying what and why. */
export interface StarterFields {
  name: string;
  base: string;
  gpus: "auto" | "none";
  gpusNote: string;
  share: string[];
  shareNote: string;
  /** `name: { … }` flow entries under runtimes. */
  runtimes: string[];
  runtime: string;
  runtimeNote: string;
  count: number;
  gpu: boolean;
  edits: string[];
  editsNote: string;
  /** Empty: nothing here said how to run an experiment, and the note says what to write. */
  command: string[];
  commandNote: string;
  protected: string[];
  protectedNote: string;
  /** An empty name, pattern or goal is left for a person, and `org validate` names it. */
  metric: { name: string; pattern: string; goal: string; note: string };
  memory: string;
}

/** org.yaml for `fields`; an empty value is written empty, for `org validate` to name. */
export function renderStarterYaml(schema: string, fields: StarterFields): string {
  const { metric } = fields;
  return [
    `# yaml-language-server: $schema=${schema}`,
    "# org.yaml: a research organization of coding agents.",
    "# Check it with `org validate`, start it with `org up`, watch it with `org status`.",
    "",
    "# Names the tmux session and the branch prefix org/<name>/<agent>.",
    `name: ${fields.name}`,
    "# The research git repo, relative to this file, and the commit-ish every agent branches from.",
    "repo: .",
    `base: ${formatScalar(fields.base)}`,
    ...note(fields.gpusNote, ""),
    `gpus: ${fields.gpus}`,
    "",
    "# Untracked paths every worktree needs: symlinked by default, or copied once.",
    ...note(fields.shareNote, ""),
    `share: ${formatList(fields.share)}`,
    "",
    RUNTIMES_HELP,
    "runtimes:",
    ...fields.runtimes.map((entry) => `  ${entry}`),
    "",
    "# Who works here. Agents are named <role>-1, <role>-2, … and each gets its own worktree.",
    "roles:",
    "  researcher:",
    "    prompt: prompts/researcher.md",
    ...note(fields.runtimeNote, "    "),
    `    runtime: ${fields.runtime}`,
    `    count: ${fields.count}`,
    "    # true gives every agent of this role a GPU of its own.",
    `    gpu: ${fields.gpu}`,
    "    # Globs this role may change; everything else is read-only to it (empty: any file not protected).",
    ...note(fields.editsNote, "    "),
    `    edits: ${formatList(fields.edits)}`,
    "",
    "# The verifier: the only judge. It runs every submitted commit in a clean checkout.",
    "verify:",
    ...note(fields.commandNote, "  "),
    `  command: ${formatList(fields.command)}`,
    "  # Restored from base before every run; a change touching them is rejected.",
    ...note(fields.protectedNote, "  "),
    `  protected: ${formatList(fields.protected)}`,
    "  metric:",
    ...note(metric.note, "    "),
    `    name:${metric.name === "" ? "" : ` ${metric.name}`}`,
    `    pattern:${metric.pattern === "" ? "" : ` ${quotePattern(metric.pattern)}`}`,
    `    goal:${metric.goal === "" ? "" : ` ${metric.goal}`}`,
    ...(fields.memory === "" ? [] : ["  memory:", `    pattern: ${quotePattern(fields.memory)}`]),
    "  timeout: 10m",
    "  parallel: 2",
    "",
    SUPERVISOR,
  ].join("\n");
}

// A note is one or more comment lines above its key, wrapped at 100 columns.
function note(text: string, indent: string): string[] {
  if (text === "") return [];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent.length + 2 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].map((part) => `${indent}# ${part}`);
}

function formatList(items: string[]): string {
  return `[${items.map(formatScalar).join(", ")}]`;
}

// Plain where YAML reads it back as the same string; else a JSON string, which YAML reads as one.
function formatScalar(value: string): string {
  const reserved = /^(true|false|null|yes|no|on|off|~|[-+0-9.eE]+)$/i.test(value);
  return /^[A-Za-z0-9_./][A-Za-z0-9_./-]*$/.test(value) && !reserved ? value : JSON.stringify(value);
}

// Single quotes keep a regex's backslashes as they are; a quote inside is doubled.
function quotePattern(pattern: string): string {
  return `'${pattern.replaceAll("'", "''")}'`;
}
