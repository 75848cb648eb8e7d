import { describe, expect, test } from "vitest";
import { evaluateTools, versionAtLeast } from "../../../src/domain/views/doctor-checks.js";

describe("org doctor", () => {
  test("versions compare numerically, letters ignored", () => {
    expect(versionAtLeast("tmux 3.3a", "3.2")).toBe(true);
    expect(versionAtLeast("tmux 3.1c", "3.2")).toBe(false);
    expect(versionAtLeast("v20.20.2", "20.19.0")).toBe(true);
    expect(versionAtLeast("v20.9.0", "20.19.0")).toBe(false);
  });

  test("names the install command for what is missing", () => {
    const checks = evaluateTools({
      node: "v20.20.2",
      git: "git version 2.39.5",
      tmux: null,
      nvidiaSmi: { found: false, gpus: 0 },
      runtimes: [
        {
          name: "claude", builtin: false, program: "claude", found: false,
          install: "npm install -g @anthropic-ai/claude-code", version: null, login: { kind: "unknown" as const },
        },
        {
          name: "bot", builtin: false, program: "./agents/bot.sh", found: false,
          install: "install ./agents/bot.sh, or fix runtimes.bot.command", version: null,
          login: { kind: "unknown" as const },
        },
        { name: "hill", builtin: true },
        {
          name: "cx", builtin: false, program: "codex", found: true, install: "npm install -g @openai/codex",
          version: "codex-cli 0.169.0", login: { kind: "no" as const, without: "", keys: [] },
        },
        {
          name: "cc", builtin: false, program: "claude", found: true,
          install: "npm install -g @anthropic-ai/claude-code", version: "2.1.328 (Claude Code)",
          login: { kind: "yes" as const, how: "$ANTHROPIC_API_KEY is passed to it" },
        },
      ],
    });
    expect(checks).toEqual([
      { name: "node", status: "ok", detail: "v20.20.2" },
      { name: "git", status: "ok", detail: "git version 2.39.5" },
      {
        name: "tmux", status: "warn",
        detail: "not found on PATH: org up runs the agents in node-pty instead, and `org attach` opens `org watch`",
        fix: "apt-get install tmux",
      },
      {
        name: "nvidia-smi", status: "warn", detail: "not found: agents run in CPU mode",
        fix: "install the NVIDIA driver to lease GPUs",
      },
      {
        name: "runtime claude", status: "fail", detail: "claude not installed (not on PATH)",
        fix: "npm install -g @anthropic-ai/claude-code",
      },
      {
        name: "runtime bot", status: "fail", detail: "./agents/bot.sh not installed (not on PATH)",
        fix: "install ./agents/bot.sh, or fix runtimes.bot.command",
      },
      { name: "runtime hill", status: "ok", detail: "built in" },
      {
        name: "runtime cx", status: "warn", detail: "codex-cli 0.169.0; does not look logged in",
        fix: "run codex once and log in",
      },
      {
        name: "runtime cc",
        status: "ok",
        detail: "2.1.328 (Claude Code); logged in ($ANTHROPIC_API_KEY is passed to it)",
      },
    ]);
  });

  test("gemini and opencode: missing, or their bare version (as 0.61.0 and 1.18.33 print it) and login", () => {
    const base = {
      node: "v20.20.2", git: "git version 2.39.5", tmux: "tmux 3.3a", nvidiaSmi: { found: true, gpus: 1 },
    };
    const checks = evaluateTools({
      ...base,
      runtimes: [
        {
          name: "gem", builtin: false, program: "gemini", found: false, install: "npm install -g @google/gemini-cli",
          version: null, login: { kind: "unknown" as const },
        },
        {
          name: "oc", builtin: false, program: "opencode", found: false, install: "npm install -g opencode-ai",
          version: null, login: { kind: "unknown" as const },
        },
        {
          name: "g", builtin: false, program: "gemini", found: true, install: "npm install -g @google/gemini-cli",
          version: "0.61.0", login: { kind: "no" as const, without: "", keys: ["GEMINI_API_KEY"] },
        },
        {
          name: "o", builtin: false, program: "opencode", found: true, install: "npm install -g opencode-ai",
          version: "1.18.33", login: { kind: "yes" as const, how: "~/.local/share/opencode/auth.json exists" },
        },
      ],
    });
    expect(checks.slice(4)).toEqual([
      {
        name: "runtime gem", status: "fail", detail: "gemini not installed (not on PATH)",
        fix: "npm install -g @google/gemini-cli",
      },
      {
        name: "runtime oc", status: "fail", detail: "opencode not installed (not on PATH)",
        fix: "npm install -g opencode-ai",
      },
      {
        name: "runtime g", status: "warn", detail: "0.61.0; does not look logged in",
        fix: "run gemini once and log in, or export GEMINI_API_KEY and add it to runtimes.g.pass_env",
      },
      { name: "runtime o", status: "ok", detail: "1.18.33; logged in (~/.local/share/opencode/auth.json exists)" },
    ]);
  });

  test("a version other than the tested one warns, with the install pinned to it; "
    + "the tested one and generic runtimes do not", () => {
    const base = {
      node: "v20.20.2", git: "git version 2.39.5", tmux: "tmux 3.3a", nvidiaSmi: { found: true, gpus: 1 },
    };
    const runtime = { builtin: false as const, found: true, login: { kind: "unknown" as const } };
    const checks = evaluateTools({
      ...base,
      runtimes: [
        {
          ...runtime, name: "old", preset: "claude", program: "claude",
          install: "npm install -g @anthropic-ai/claude-code", version: "2.0.1 (Claude Code)",
        },
        {
          ...runtime, name: "cx", preset: "codex", program: "codex", install: "npm install -g @openai/codex",
          version: "codex-cli 0.169.0",
        },
        { ...runtime, name: "bot", preset: "generic", program: "./bot.sh", install: "", version: "bot 9.9.9" },
        {
          ...runtime, name: "g", preset: "gemini", program: "gemini", install: "npm install -g @google/gemini-cli",
          version: "0.62.0", login: { kind: "no" as const, without: "", keys: ["GEMINI_API_KEY"] },
        },
      ],
    });
    expect(checks.slice(4)).toEqual([
      {
        name: "runtime old", status: "warn",
        detail: "2.0.1 (Claude Code); 2.0.1 is not 2.1.328, the version org was tested with: org may not recognize its "
          + "screens (login, errors, dialogs)",
        fix: "npm install -g @anthropic-ai/claude-code@2.1.328",
      },
      { name: "runtime cx", status: "ok", detail: "codex-cli 0.169.0" },
      { name: "runtime bot", status: "ok", detail: "bot 9.9.9" },
      {
        name: "runtime g",
        status: "warn",
        detail: "0.62.0; does not look logged in; 0.62.0 is not 0.61.0, the version org was tested with: "
          + "org may not recognize its screens (login, errors, dialogs)",
        fix: "run gemini once and log in, or export GEMINI_API_KEY and add it to runtimes.g.pass_env; "
          + "npm install -g @google/gemini-cli@0.61.0",
      },
    ]);
  });

  test("a key counts only where it reaches the program; opencode needs no login at all", () => {
    const base = {
      node: "v20.20.2", git: "git version 2.39.5", tmux: "tmux 3.3a", nvidiaSmi: { found: true, gpus: 1 },
    };
    const runtime = { builtin: false as const, found: true, install: "" };
    const checks = evaluateTools({
      ...base,
      runtimes: [
        {
          ...runtime, name: "g", program: "gemini", version: "0.61.0",
          login: { kind: "withheld", variable: "GEMINI_API_KEY" },
        },
        {
          ...runtime, name: "o", program: "opencode", version: "1.18.33",
          login: {
            kind: "no",
            without: "runs on OpenCode Zen's free models; `opencode auth login` adds other providers",
            keys: ["ANTHROPIC_API_KEY"],
          },
        },
        { ...runtime, name: "bot", program: "./bot.sh", version: null, login: { kind: "no", without: "", keys: [] } },
      ],
    });
    expect(checks.slice(4)).toEqual([
      {
        name: "runtime g", status: "warn", detail: "0.61.0; $GEMINI_API_KEY is set but not passed to it",
        fix: "add GEMINI_API_KEY to runtimes.g.pass_env",
      },
      {
        name: "runtime o",
        status: "ok",
        detail: "1.18.33; not logged in: runs on OpenCode Zen's free models; "
          + "`opencode auth login` adds other providers",
      },
      {
        name: "runtime bot", status: "warn", detail: "version unknown; does not look logged in",
        fix: "run ./bot.sh once and log in",
      },
    ]);
  });
});
