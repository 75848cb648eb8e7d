import { describe, expect, test } from "vitest";
import { evaluateTools, versionAtLeast } from "../src/org/doctor.js";

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
        { name: "claude", builtin: false, program: "claude", found: false, install: "npm install -g @anthropic-ai/claude-code", version: null, login: null },
        { name: "bot", builtin: false, program: "./agents/bot.sh", found: false, install: "install ./agents/bot.sh, or fix runtimes.bot.command", version: null, login: null },
        { name: "hill", builtin: true },
        { name: "cx", builtin: false, program: "codex", found: true, install: "npm install -g @openai/codex", version: "codex-cli 0.169.0", login: "" },
        { name: "cc", builtin: false, program: "claude", found: true, install: "npm install -g @anthropic-ai/claude-code", version: "2.1.328 (Claude Code)", login: "$ANTHROPIC_API_KEY is set" },
      ],
    });
    expect(checks).toEqual([
      { name: "node", status: "ok", detail: "v20.20.2" },
      { name: "git", status: "ok", detail: "git version 2.39.5" },
      { name: "tmux", status: "fail", detail: "not found on PATH", fix: "apt-get install tmux" },
      { name: "nvidia-smi", status: "warn", detail: "not found: agents run in CPU mode", fix: "install the NVIDIA driver to lease GPUs" },
      { name: "runtime claude", status: "fail", detail: "claude not installed (not on PATH)", fix: "npm install -g @anthropic-ai/claude-code" },
      { name: "runtime bot", status: "fail", detail: "./agents/bot.sh not installed (not on PATH)", fix: "install ./agents/bot.sh, or fix runtimes.bot.command" },
      { name: "runtime hill", status: "ok", detail: "built in" },
      { name: "runtime cx", status: "warn", detail: "codex-cli 0.169.0; does not look logged in", fix: "run codex once and log in, or set its API key under runtimes.cx.env" },
      { name: "runtime cc", status: "ok", detail: "2.1.328 (Claude Code); logged in ($ANTHROPIC_API_KEY is set)" },
    ]);
  });
});
