/** One line of `org doctor`. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

/** Compare dotted versions: 3.3a ≥ 3.2, 20.20.2 ≥ 20.19.0. */
export function versionAtLeast(actual: string, minimum: string): boolean {
  const parse = (text: string) => (text.match(/\d+(\.\d+)*/)?.[0] ?? "0").split(".").map(Number);
  const [a, b] = [parse(actual), parse(minimum)];
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const diff = (a[index] ?? 0) - (b[index] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return true;
}

export interface ToolProbe {
  /** Version text, or null when the program is not on PATH. */
  node: string;
  git: string | null;
  tmux: string | null;
  nvidiaSmi: { found: boolean; gpus: number; error?: string };
  runtimes: { name: string; program: string; found: boolean; builtin: boolean }[];
}

// Runtime programs people commonly name, with how to install them.
const INSTALL: Record<string, string> = {
  claude: "npm install -g @anthropic-ai/claude-code",
  codex: "npm install -g @openai/codex",
  gemini: "npm install -g @google/gemini-cli",
  opencode: "npm install -g opencode-ai",
};

/** What is missing on this machine and the command that installs it. */
export function evaluateTools(probe: ToolProbe): Check[] {
  const checks: Check[] = [];
  checks.push(versionAtLeast(probe.node, "20.19.0")
    ? { name: "node", status: "ok", detail: probe.node }
    : { name: "node", status: "fail", detail: `${probe.node} is older than 20.19`, fix: "install Node.js 20.19 or newer" });
  checks.push(probe.git === null
    ? { name: "git", status: "fail", detail: "not found on PATH", fix: "apt-get install git" }
    : { name: "git", status: "ok", detail: probe.git });
  if (probe.tmux === null) checks.push({ name: "tmux", status: "fail", detail: "not found on PATH", fix: "apt-get install tmux" });
  else if (!versionAtLeast(probe.tmux, "3.2")) checks.push({ name: "tmux", status: "fail", detail: `${probe.tmux} is older than 3.2`, fix: "install tmux 3.2 or newer" });
  else checks.push({ name: "tmux", status: "ok", detail: probe.tmux });
  checks.push(probe.nvidiaSmi.found
    ? { name: "nvidia-smi", status: probe.nvidiaSmi.error ? "warn" : "ok", detail: probe.nvidiaSmi.error ?? `${probe.nvidiaSmi.gpus} GPU${probe.nvidiaSmi.gpus === 1 ? "" : "s"}` }
    : { name: "nvidia-smi", status: "warn", detail: "not found: agents run in CPU mode", fix: "install the NVIDIA driver to lease GPUs" });
  for (const runtime of probe.runtimes) {
    if (runtime.builtin) checks.push({ name: `runtime ${runtime.name}`, status: "ok", detail: "built in" });
    else if (runtime.found) checks.push({ name: `runtime ${runtime.name}`, status: "ok", detail: `${runtime.program} on PATH` });
    else checks.push({ name: `runtime ${runtime.name}`, status: "fail", detail: `${runtime.program} not found on PATH`, fix: INSTALL[runtime.program] ?? `install ${runtime.program} or fix runtimes.${runtime.name}.command` });
  }
  return checks;
}
