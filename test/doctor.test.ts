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
        { name: "claude", program: "claude", found: false, builtin: false },
        { name: "bot", program: "./agents/bot.sh", found: false, builtin: false },
        { name: "hill", program: "", found: true, builtin: true },
      ],
    });
    expect(checks).toEqual([
      { name: "node", status: "ok", detail: "v20.20.2" },
      { name: "git", status: "ok", detail: "git version 2.39.5" },
      { name: "tmux", status: "fail", detail: "not found on PATH", fix: "apt-get install tmux" },
      { name: "nvidia-smi", status: "warn", detail: "not found: agents run in CPU mode", fix: "install the NVIDIA driver to lease GPUs" },
      { name: "runtime claude", status: "fail", detail: "claude not found on PATH", fix: "npm install -g @anthropic-ai/claude-code" },
      { name: "runtime bot", status: "fail", detail: "./agents/bot.sh not found on PATH", fix: "install ./agents/bot.sh or fix runtimes.bot.command" },
      { name: "runtime hill", status: "ok", detail: "built in" },
    ]);
  });
});
