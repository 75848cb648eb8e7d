import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, test } from "vitest";
import { applyHermeticEnv, hermeticEnv } from "./hermetic-env.js";

describe("the tests' environment (test/hermetic-env.ts)", () => {
  test("whatever the shell held, a test process and its children see the fixed environment and an empty HOME", () => {
    for (const polluter of [
      "IS_SANDBOX",
      "CI",
      "CLAUDE_CONFIG_DIR",
      "CODEX_HOME",
      "GEMINI_API_KEY",
      "OPENCODE_CONFIG",
      "XDG_CONFIG_HOME",
      "LC_ALL",
      "TMUX",
      "ORG_AGENT",
    ])
      expect(process.env[polluter]).toBeUndefined();
    expect(process.env).toMatchObject({ TERM: "xterm-256color", NO_COLOR: "1", LANG: "C.UTF-8", TZ: "UTC" });
    expect(process.env.HOME!.startsWith(tmpdir())).toBe(true);
    expect(readdirSync(process.env.HOME!)).toEqual([]);
    const child = execFileSync(
      "sh",
      ["-c", 'printf "%s|%s|%s|%s" "$HOME" "$TERM" "${IS_SANDBOX-unset}" "${CI-unset}"'],
      { encoding: "utf8" },
    );
    expect(child).toBe(`${process.env.HOME}|xterm-256color|unset|unset`);
  });

  test("only PATH, the certificate files, vitest's own and the suites' knobs are kept; the rest is dropped", () => {
    const env: NodeJS.ProcessEnv = {
      PATH: "/bin",
      VITEST_POOL_ID: "1",
      ORG_FUZZ_COUNT: "9",
      IS_SANDBOX: "yes",
      CI: "true",
      NO_COLOR: "",
      TERM: "dumb",
      HOME: "/root",
      ANTHROPIC_BASE_URL: "https://x",
      ORG_STATE: "/s",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
    };
    applyHermeticEnv(env, hermeticEnv("/tmp/h"));
    expect(env).toEqual({ PATH: "/bin", VITEST_POOL_ID: "1", ORG_FUZZ_COUNT: "9", ...hermeticEnv("/tmp/h") });
  });
});
