import type { PresetName } from "../runtimes/runtime-presets.js";
import { judgeVersion, pinInstall } from "../runtimes/tested-versions.js";

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
  runtimes: RuntimeCheckInput[];
}

/** Whether a runtime's program will find a login: only what reaches the program counts, not what `org up` holds. */
export type LoginProbe =
  | { kind: "unknown" }
  | { kind: "yes"; how: string }
  /** Set in `org up`'s environment, but a secret the runtime does not pass: its program never sees it. */
  | { kind: "withheld"; variable: string }
  /** `without`: what the program does with no login ("" when it needs one); `keys`: variables that would do. */
  | { kind: "no"; without: string; keys: string[] };

/** One runtime of the org as probed: builtins need nothing; the rest need their program, and maybe a login. */
export type RuntimeCheckInput =
  | { name: string; builtin: true }
  | {
    name: string; builtin: false; preset?: PresetName; program: string; found: boolean; install: string;
    version: string | null; login: LoginProbe;
  };

/** What is missing on this machine and the command that installs it. */
export function evaluateTools(probe: ToolProbe): Check[] {
  const checks: Check[] = [];
  checks.push(versionAtLeast(probe.node, "20.19.0")
    ? { name: "node", status: "ok", detail: probe.node }
    : {
      name: "node",
      status: "fail",
      detail: `${probe.node} is older than 20.19`,
      fix: "install Node.js 20.19 or newer",
    });
  checks.push(probe.git === null
    ? { name: "git", status: "fail", detail: "not found on PATH", fix: "apt-get install git" }
    : { name: "git", status: "ok", detail: probe.git });
  // Without tmux `org up` runs the grid in node-pty: a warning, not a failure.
  if (probe.tmux === null) checks.push({
    name: "tmux",
    status: "warn",
    detail: "not found on PATH: org up runs the agents in node-pty instead, and `org attach` opens `org watch`",
    fix: "apt-get install tmux",
  });
  else if (!versionAtLeast(probe.tmux, "3.2")) checks.push({
    name: "tmux",
    status: "fail",
    detail: `${probe.tmux} is older than 3.2`,
    fix: "install tmux 3.2 or newer",
  });
  else checks.push({ name: "tmux", status: "ok", detail: probe.tmux });
  checks.push(probe.nvidiaSmi.found
    ? {
      name: "nvidia-smi",
      status: probe.nvidiaSmi.error ? "warn" : "ok",
      detail: probe.nvidiaSmi.error ?? `${probe.nvidiaSmi.gpus} GPU${probe.nvidiaSmi.gpus === 1 ? "" : "s"}`,
    }
    : {
      name: "nvidia-smi",
      status: "warn",
      detail: "not found: agents run in CPU mode",
      fix: "install the NVIDIA driver to lease GPUs",
    });
  checks.push(...probe.runtimes.map((runtime) => flagOtherVersion(runtime, evaluateRuntime(runtime))));
  return checks;
}

/** Installed (with its version) and logged in, or what to run. */
function evaluateRuntime(runtime: RuntimeCheckInput): Check {
  const name = `runtime ${runtime.name}`;
  if (runtime.builtin) return { name, status: "ok", detail: "built in" };
  if (!runtime.found) return {
    name,
    status: "fail",
    detail: `${runtime.program} not installed (not on PATH)`,
    fix: runtime.install,
  };
  const version = runtime.version ?? "version unknown";
  const login = runtime.login;
  switch (login.kind) {
    case "unknown":
      return { name, status: "ok", detail: version };
    case "yes":
      return { name, status: "ok", detail: `${version}; logged in (${login.how})` };
    case "withheld":
      return {
        name,
        status: "warn",
        detail: `${version}; $${login.variable} is set but not passed to it`,
        fix: `add ${login.variable} to runtimes.${runtime.name}.pass_env`,
      };
    case "no": {
      if (login.without) return { name, status: "ok", detail: `${version}; not logged in: ${login.without}` };
      const key = login.keys[0] ? `, or export ${login.keys[0]} and add it to runtimes.${runtime.name}.pass_env` : "";
      return {
        name,
        status: "warn",
        detail: `${version}; does not look logged in`,
        fix: `run ${runtime.program} once and log in${key}`,
      };
    }
  }
}

/**
 * A version other than the tested one still runs, but its screens may go unrecognized: a
 * warning with the pinned install.
 */
function flagOtherVersion(runtime: RuntimeCheckInput, check: Check): Check {
  if (runtime.builtin || !runtime.found || !runtime.preset) return check;
  const verdict = judgeVersion(runtime.preset, runtime.version);
  if (verdict.kind !== "other") return check;
  const pin = pinInstall(runtime.install, verdict.tested);
  const detail = `${check.detail}; ${verdict.reason}: org may not recognize its screens (login, errors, dialogs)`;
  return {
    name: check.name,
    status: check.status === "fail" ? "fail" : "warn",
    detail,
    fix: check.fix ? `${check.fix}; ${pin}` : pin,
  };
}
