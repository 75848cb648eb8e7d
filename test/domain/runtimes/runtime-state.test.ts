import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import { processRunner } from "../../../src/adapters/process.js";
import { hasConversation, probeRuntime } from "../../../src/adapters/probes/runtime.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { buildLaunchSpec, planAgents } from "../../../src/domain/lifecycle/plan-agents.js";
import {
  appendTomlTable, mergeJson, parseStateFile, planConfigState, planConfigTables,
} from "../../../src/domain/runtimes/config-state.js";
import { prepareRuntimeFiles } from "../../../src/domain/runtimes/prepare-runtime-files.js";
import { resolveRuntime } from "../../../src/domain/runtimes/resolve-runtime.js";
import { pickEnv } from "../../../src/domain/lifecycle/secrets.js";
import type { LaunchSpec } from "../../../src/domain/state.js";
import { makeTempDir, removeDir, writeFiles } from "../../helpers/temp-repo.js";

const KEY = "sk-ant-api03-secretsecretsecret-ABCDEFGHIJKLMNOPQRST";

let dir: string;
beforeEach(() => {
  dir = makeTempDir("org-runtime-state-");
});
afterEach(() => removeDir(dir));

function specFor(runtime: Record<string, unknown>): LaunchSpec {
  const config = ConfigSchema.parse({
    name: "toy",
    runtimes: { r: runtime },
    roles: { researcher: { prompt: "p.md", runtime: "r" } },
  });
  const [agent] = planAgents(config, join(dir, "worktrees"), new Map([["researcher-1", null]]));
  return buildLaunchSpec(config, agent!, {
    state: join(dir, "state"), root: dir, orgArgv: ["node", "org"], binDir: join(dir, "state/bin"),
    basePath: "/usr/bin",
  });
}

/** prepareRuntimeFiles with real files, `env` as `org up`'s environment and `user` as ~. */
async function prepare(spec: LaunchSpec, env: Record<string, string> = {}, user = join(dir, "user")): Promise<void> {
  await prepareRuntimeFiles({ files: filesPort, secretEnv: (names) => pickEnv(env, names) }, spec, "# role\n", user);
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Every file under `folder`, as text. */
function allText(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).map((name) => join(folder, name)).filter((path) =>
    statSync(path).isFile()).map((path) => readFileSync(path, "utf8")).join("\n");
}

describe("first-start answers in the agent's config folder", () => {
  test("claude with a passed key and a trusted worktree: onboarding done, the key approved by its last 20 characters, "
    + "trust and the bypass warning accepted", async () => {
    const spec = specFor({ preset: "claude", pass_env: ["ANTHROPIC_API_KEY"], answer_trust: true });
    await prepare(spec, { ANTHROPIC_API_KEY: KEY });
    const home = spec.runtime!.home;
    expect(readJson(join(home, ".claude.json"))).toEqual({
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: ["ABCDEFGHIJKLMNOPQRST"] },
      projects: { [spec.cwd]: { hasTrustDialogAccepted: true } },
    });
    expect(readJson(join(home, "settings.json"))).toEqual({ skipDangerousModePermissionPrompt: true });
    expect(allText(home)).not.toContain(KEY.slice(0, 30));
  });

  test("claude without answer_trust: no trust, no bypass acceptance; a key not passed is never read", async () => {
    const spec = specFor({ preset: "claude" });
    await prepare(spec, { ANTHROPIC_API_KEY: KEY });
    expect(readJson(join(spec.runtime!.home, ".claude.json"))).toEqual({ hasCompletedOnboarding: true });
    expect(() => statSync(join(spec.runtime!.home, "settings.json"))).toThrow();
  });

  test("codex with a trusted worktree: its folder trusted in the agent's config.toml after the seeded "
    + "settings, once; untrusted: nothing", async () => {
    writeFiles(join(dir, "user"), {
      ".codex/config.toml": 'model = "gpt-5"\n[projects."/elsewhere"]\ntrust_level = "trusted"',
    });
    const spec = specFor({ preset: "codex", answer_trust: true });
    await prepare(spec);
    const file = join(spec.runtime!.home, "config.toml");
    const expected = `model = "gpt-5"\n[projects."/elsewhere"]\ntrust_level = "trusted"\n\n`
      + `[projects.${JSON.stringify(spec.cwd)}]\ntrust_level = "trusted"\n`;
    expect(readFileSync(file, "utf8")).toBe(expected);
    // A later org up finds the table there: not written twice (TOML forbids a table twice).
    await prepare(spec);
    expect(readFileSync(file, "utf8")).toBe(expected);
    const untrusted = specFor({ preset: "codex" });
    removeDir(join(dir, "state"));
    await prepare(untrusted, {}, join(dir, "nobody"));
    expect(() => statSync(join(untrusted.runtime!.home, "config.toml"))).toThrow();
  });

  test("a TOML table header quotes a path's backslashes and quotes", () => {
    const header = planConfigTables("codex", { worktree: 'C:\\w "x"', answerTrust: true, env: {} })[0]!.header;
    expect(appendTomlTable(undefined, { file: "config.toml", header, body: "a = 1" }))
      .toBe('[projects."C:\\\\w \\"x\\""]\na = 1\n');
  });

  test("a key in the runtime's env counts; a key of 20 characters or fewer is left to the CLI's own prompt", () => {
    expect(
      planConfigState("claude", { worktree: "/w", answerTrust: false, env: { ANTHROPIC_API_KEY: ` ${KEY}\n` } }),
    ).toEqual([
      {
        file: ".claude.json",
        set: { hasCompletedOnboarding: true, customApiKeyResponses: { approved: ["ABCDEFGHIJKLMNOPQRST"] } },
      },
    ]);
    expect(
      planConfigState("claude", {
        worktree: "/w",
        answerTrust: false,
        env: { ANTHROPIC_API_KEY: "short-key-20-chars.." },
      }),
    ).toEqual([
      { file: ".claude.json", set: { hasCompletedOnboarding: true } },
    ]);
    expect(planConfigState("codex", { worktree: "/w", answerTrust: true, env: { OPENAI_API_KEY: KEY } })).toEqual([]);
    expect(planConfigState("opencode", { worktree: "/w", answerTrust: true, env: {} })).toEqual([]);
  });

  test("merged over what the CLI wrote: its keys kept, approved keys added to, "
    + "nothing rewritten when nothing changes", async () => {
    const spec = specFor({ preset: "claude", pass_env: ["ANTHROPIC_API_KEY"], answer_trust: true });
    const file = join(spec.runtime!.home, ".claude.json");
    const other = { hasTrustDialogAccepted: false, allowedTools: [] };
    writeFiles(spec.runtime!.home, {
      ".claude.json": JSON.stringify({
        userID: "u1",
        customApiKeyResponses: { approved: ["older-key-suffix-000"], rejected: [] },
        projects: { [spec.cwd]: { hasTrustDialogAccepted: false, allowedTools: ["Bash"] }, "/elsewhere": other },
      }),
    });
    await prepare(spec, { ANTHROPIC_API_KEY: KEY });
    expect(readJson(file)).toEqual({
      userID: "u1",
      customApiKeyResponses: { approved: ["older-key-suffix-000", "ABCDEFGHIJKLMNOPQRST"], rejected: [] },
      projects: { [spec.cwd]: { hasTrustDialogAccepted: true, allowedTools: ["Bash"] }, "/elsewhere": other },
      hasCompletedOnboarding: true,
    });
    const written = statSync(file).mtimeMs;
    const text = readFileSync(file, "utf8");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await prepare(spec, { ANTHROPIC_API_KEY: KEY });
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(statSync(file).mtimeMs).toBe(written);
  });

  test("gemini with GEMINI_API_KEY passed: the key selected in its settings over the "
    + "seeded ones, no self-update, its shell tool on pipes", async () => {
    const spec = specFor({ preset: "gemini", pass_env: ["GEMINI_API_KEY"] });
    writeFiles(join(dir, "user"), {
      ".gemini/settings.json": JSON.stringify({ ui: { theme: "ANSI" }, general: { vimMode: true } }),
    });
    await prepare(spec, { GEMINI_API_KEY: "gemini-key" });
    expect(readJson(join(spec.runtime!.home, ".gemini/settings.json"))).toEqual({
      ui: { theme: "ANSI" },
      general: { vimMode: true, enableAutoUpdate: false },
      tools: { shell: { enableInteractiveShell: false } },
      security: { auth: { selectedType: "gemini-api-key" } },
    });
    expect(allText(spec.runtime!.home)).not.toContain("gemini-key");
    // The user's own file is untouched.
    expect(readJson(join(dir, "user/.gemini/settings.json"))).toEqual({
      ui: { theme: "ANSI" },
      general: { vimMode: true },
    });
  });

  test("gemini without a key passed: no auth type chosen for it; "
    + "a seeded settings.json with comments is left as it is", async () => {
    const spec = specFor({ preset: "gemini" });
    await prepare(spec, { GEMINI_API_KEY: "not-passed" });
    expect(readJson(join(spec.runtime!.home, ".gemini/settings.json"))).toEqual({
      general: { enableAutoUpdate: false },
      tools: { shell: { enableInteractiveShell: false } },
    });
    const commented = specFor({ preset: "gemini", pass_env: ["GEMINI_API_KEY"] });
    removeDir(commented.runtime!.home);
    const jsonc = '{\n  // mine\n  "ui": { "theme": "ANSI" }\n}\n';
    writeFiles(join(dir, "user"), { ".gemini/settings.json": jsonc });
    await prepare(commented, { GEMINI_API_KEY: "k" });
    expect(readFileSync(join(commented.runtime!.home, ".gemini/settings.json"), "utf8")).toBe(jsonc);
  });

  test("mergeJson and parseStateFile", () => {
    expect(mergeJson({ a: { b: 1, c: [1, 2] }, d: "x" }, { a: { c: [2, 3], e: null }, d: "y" })).toEqual({
      a: { b: 1, c: [1, 2, 3], e: null },
      d: "y",
    });
    expect(mergeJson({ a: [1] }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
    expect(parseStateFile(undefined)).toEqual({});
    expect(parseStateFile('{"a":1}')).toEqual({ a: 1 });
    expect(parseStateFile("[1]")).toBeNull();
    expect(parseStateFile("{ // c\n}")).toBeNull();
  });
});

describe("a conversation to resume, as each CLI keeps it", () => {
  const holds = async (runtime: Record<string, unknown>, files: Record<string, string>) => {
    const spec = specFor(runtime);
    writeFiles(spec.runtime!.home, files);
    return hasConversation(spec.runtime!);
  };

  test("claude: its session id's transcript, nothing else", async () => {
    const spec = specFor({ preset: "claude" });
    expect(
      await holds({ preset: "claude" }, { "history.jsonl": "{}\n", "projects/-w/other-session.jsonl": "{}\n" }),
    ).toBe(false);
    expect(await holds({ preset: "claude" }, { [`projects/-w/${spec.runtime!.sessionId}.jsonl`]: "{}\n" })).toBe(true);
  });

  test("gemini: a chat (session-*.jsonl under .gemini/tmp), not its logs.json", async () => {
    expect(
      await holds({ preset: "gemini" }, {
        ".gemini/tmp/wt/logs.json": "[]",
        ".gemini/tmp/wt/.project_root": "/w",
        ".gemini/settings.json": "{}",
      }),
    ).toBe(false);
    expect(
      await holds({ preset: "gemini" }, { ".gemini/tmp/wt/chats/session-2026-11-29T14-55-8ad00d71.jsonl": "{}\n" }),
    ).toBe(true);
  });

  test("opencode: its database (opencode/opencode.db), not auth.json or logs", async () => {
    expect(await holds({ preset: "opencode" }, { "opencode/auth.json": "{}", "opencode/log/opencode.log": "" }))
      .toBe(false);
    expect(await holds({ preset: "opencode" }, { "opencode/opencode.db": "SQLite format 3\0" })).toBe(true);
  });

  test("codex: a rollout under sessions/<year>/<month>/<day>", async () => {
    expect(await holds({ preset: "codex" }, { "auth.json": "{}", "config.toml": "" })).toBe(false);
    expect(
      await holds({ preset: "codex" }, { "sessions/2026/11/29/rollout-2026-11-29T14-55-00-abc.jsonl": "{}\n" }),
    ).toBe(true);
  });
});

describe("org doctor's login probe", () => {
  /** The probe of one runtime whose program is a script printing `version`, under `env` with an empty HOME. */
  const probe = (runtime: Record<string, unknown>, env: Record<string, string> = {}) => {
    const program = join(dir, "cli");
    writeFileSync(program, "#!/bin/sh\necho 1.2.3\n");
    chmodSync(program, 0o755);
    const parsed = ConfigSchema.shape.runtimes.parse({ r: { ...runtime, program } }).r!;
    return probeRuntime("r", resolveRuntime(parsed), dir, processRunner, {
      PATH: process.env.PATH ?? "",
      HOME: join(dir, "user"),
      ...env,
    });
  };

  test("a key counts where it reaches the program: passed or in its env; set but not passed, it is named", async () => {
    expect((await probe({ preset: "gemini", pass_env: ["GEMINI_API_KEY"] }, { GEMINI_API_KEY: "k" })).login).toEqual({
      kind: "yes",
      how: "$GEMINI_API_KEY is passed to it",
    });
    expect((await probe({ preset: "gemini" }, { GEMINI_API_KEY: "k" })).login).toEqual({
      kind: "withheld",
      variable: "GEMINI_API_KEY",
    });
    expect((await probe({ preset: "claude", env: { ANTHROPIC_API_KEY: "k" } })).login).toEqual({
      kind: "yes",
      how: "$ANTHROPIC_API_KEY is set in its env",
    });
    expect((await probe({ preset: "gemini", pass_env: ["GOOGLE_API_KEY"] }, { GOOGLE_API_KEY: "k" })).login).toEqual({
      kind: "no",
      without: "",
      keys: ["GEMINI_API_KEY"],
    });
  });

  test("a credential file under ~ counts; opencode with nothing runs on free models; generic cannot tell", async () => {
    writeFiles(join(dir, "user"), { ".codex/auth.json": "{}" });
    expect((await probe({ preset: "codex" })).login).toEqual({ kind: "yes", how: "~/.codex/auth.json exists" });
    expect((await probe({ preset: "opencode" })).login).toEqual({
      kind: "no",
      without: expect.stringContaining("OpenCode Zen's free models"),
      keys: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"],
    });
    expect(await probe({ command: ["x"], version: ["x", "--version"] })).toMatchObject({
      found: true,
      version: "1.2.3",
      login: { kind: "unknown" },
    });
  });
});
