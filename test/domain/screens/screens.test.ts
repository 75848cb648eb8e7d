import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { renderScreen } from "../../../src/adapters/render/screen.js";
import { detectScreen } from "../../../src/domain/screens/detect.js";
import { describeFix } from "../../../src/domain/screens/fixes.js";
import { parseResetTime } from "../../../src/domain/screens/reset-time.js";
import type { PresetName } from "../../../src/domain/runtimes/runtime-presets.js";
import { FIXTURES } from "../../helpers/org-cli.js";

const screen = async (name: string) =>
  renderScreen(readFileSync(`${FIXTURES}/screens/${name}.txt`, "utf8"), { cols: 120, rows: 40 });

describe("screen detectors on fixtures", () => {
  // Real screens captured in a tmux pane (claude-2.1.328-*, codex-0.169.0-*, gemini-0.61.0-*, opencode-1.18.33-*)
  // and screens copied from the CLIs' output.
  test.each([
    ["claude", "claude-2.1.328-offline", false, "offline"],
    ["claude", "claude-2.1.328-retrying", true, "offline"],
    ["claude", "claude-2.1.328-trust", true, "trust-dialog"],
    ["claude", "claude-2.1.328-trust-yes-selected", true, "trust-dialog"],
    ["claude", "claude-2.1.328-bypass-permissions", true, "trust-dialog"],
    ["claude", "claude-2.1.328-api-key-prompt", true, "login-required"],
    ["claude", "claude-2.1.328-not-logged-in", true, "login-required"],
    ["codex", "codex-0.169.0-sign-in", true, "login-required"],
    ["codex", "codex-0.169.0-trust", true, "trust-dialog"],
    ["codex", "codex-0.169.0-idle", true, "idle"],
    ["codex", "codex-0.169.0-reconnecting", true, "offline"],
    ["codex", "codex-0.169.0-retrying-500", true, "working"],
    ["codex", "codex-0.169.0-server-error", true, "service-error"],
    ["codex", "codex-0.169.0-stream-disconnected", true, "service-error"],
    ["claude", "claude-2.1.328-retrying-500", true, "working"],
    ["opencode", "opencode-1.18.33-retrying-500", true, "working"],
    ["opencode", "opencode-1.18.33-server-error", true, "service-error"],
    ["claude", "claude-2.1.328-connection-dropped", true, "service-error"],
    ["claude", "claude-2.1.328-server-error", true, "service-error"],
    ["opencode", "opencode-1.18.33-stream-closed", true, "service-error"],
    ["claude", "claude-2.1.328-malformed-reply", true, "service-error"],
    ["codex", "codex-0.169.0-stream-cut", true, "service-error"],
    ["opencode", "opencode-1.18.33-malformed-reply", true, "service-error"],
    ["gemini", "gemini-0.61.0-retrying-500", true, "working"],
    ["gemini", "gemini-0.61.0-malformed-reply", true, "service-error"],
    ["codex", "codex-0.169.0-stalled", true, "working"],
    ["gemini", "gemini-0.61.0-stalled", true, "working"],
    ["claude", "claude-2.1.328-retrying-cut", true, "working"],
    ["gemini", "gemini-0.61.0-trust", true, "trust-dialog"],
    ["gemini", "gemini-0.61.0-trust-restarting", true, "working"],
    ["gemini", "gemini-0.61.0-sign-in", true, "login-required"],
    ["gemini", "gemini-0.61.0-api-key-unselected", true, "login-required"],
    ["gemini", "gemini-0.61.0-working", true, "working"],
    ["gemini", "gemini-0.61.0-offline", true, "offline"],
    ["gemini", "gemini-0.61.0-headless-untrusted", false, "refused"],
    ["claude", "claude-2.1.328-key-refused", true, "key-refused"],
    ["codex", "codex-0.169.0-key-refused", true, "key-refused"],
    ["gemini", "gemini-0.61.0-key-refused", true, "key-refused"],
    ["opencode", "opencode-1.18.33-key-refused", true, "key-refused"],
    ["opencode", "opencode-1.18.33-idle", true, "idle"],
    ["opencode", "opencode-1.18.33-working", true, "working"],
    ["opencode", "opencode-1.18.33-retrying", true, "offline"],
    ["opencode", "opencode-1.18.33-offline", true, "offline"],
    ["claude", "claude-not-logged-in", true, "login-required"],
    ["claude", "claude-root-refused", false, "refused"],
    ["claude", "claude-idle", true, "idle"],
    ["claude", "claude-working", true, "working"],
    ["claude", "claude-trust", true, "trust-dialog"],
    ["claude", "claude-usage-limit", true, "usage-limit"],
    ["codex", "codex-idle", true, "idle"],
    ["codex", "codex-working", true, "working"],
    ["codex", "codex-usage-limit", true, "usage-limit"],
    ["codex", "codex-offline", true, "offline"],
    ["claude", "shell-after-crash", true, "shell"],
    ["claude", "exit-127", false, "shell"],
    ["claude", "garbage", true, "unknown"],
    ["generic", "claude-idle", true, "unknown"],
  ] as [PresetName, string, boolean, string][])("%s %s → %s", async (preset, name, alive, kind) => {
    expect(detectScreen(preset, await screen(name), alive).kind).toBe(kind);
  });

  test("a dead program's last screen is never idle or working", async () => {
    expect(detectScreen("claude", await screen("claude-idle"), false)).toEqual({
      kind: "unknown", reason: 'no known screen; last line "⏵⏵ bypass permissions on (shift+tab to cycle)"',
    });
  });

  test("real trust dialogs carry the keys that answer yes where the cursor is "
    + "(checked by hand on each CLI)", async () => {
    // Claude 2.1.328 selects "No, exit" first: Enter alone exits with "this folder isn't trusted".
    expect(detectScreen("claude", await screen("claude-2.1.328-trust"))).toEqual({
      kind: "trust-dialog", keys: ["Down", "Enter"],
      reason: 'screen shows "Quick safety check: Is this a project you created or one you trust? (Like your own code, '
        + 'a well-known open source"',
    });
    expect(detectScreen("claude", await screen("claude-2.1.328-trust-yes-selected"))).toEqual({
      kind: "trust-dialog", keys: ["Enter"], reason: 'screen shows "❯ Yes, I trust this folder"',
    });
    expect(detectScreen("claude", await screen("claude-2.1.328-bypass-permissions"))).toMatchObject({
      keys: ["Down", "Enter"],
    });
    expect(detectScreen("codex", await screen("codex-0.169.0-trust"))).toMatchObject({ keys: ["Enter"] });
    expect(detectScreen("gemini", await screen("gemini-0.61.0-trust"))).toEqual({
      kind: "trust-dialog", keys: ["Enter"], reason: 'screen shows "Do you trust the files in this folder?"',
    });
  });

  test("a row inside a box is shown without its edges; "
    + "the CLI's own hint is the reason when it gives one", async () => {
    expect(detectScreen("gemini", await screen("gemini-0.61.0-sign-in")).reason).toBe(
      'screen shows "How would you like to authenticate for this project?"',
    );
    expect(detectScreen("gemini", await screen("gemini-0.61.0-api-key-unselected")).reason).toBe(
      'screen shows "Existing API key detected (GEMINI_API_KEY). Select "Gemini API Key" option to use it."',
    );
    expect(detectScreen("opencode", await screen("opencode-1.18.33-retrying")).reason).toBe('screen shows "⬝⬝⬝⬝■■■■ '
      + 'Cannot connect to API: Was there a typo in the url or port? [retrying in 3s attempt #3] esc interrupt"');
    expect(detectScreen("claude", await screen("claude-2.1.328-retrying")).reason).toMatch(
      /^screen shows "✻ Can't reach the API server — check your internet or DNS \(ENOTFOUND\)/,
    );
  });

  test("a key the model service refuses (401) blocks at once, even while the CLI retries, "
    + "with the fix that names the key", async () => {
    const reasons = await Promise.all(
      (["claude-2.1.328", "codex-0.169.0", "gemini-0.61.0", "opencode-1.18.33"] as const).map(async (name) =>
        detectScreen(name.split("-")[0] as "claude", await screen(`${name}-key-refused`)).reason),
    );
    expect(reasons).toEqual([
      'screen shows "✻ 401 invalid x-api-key · retrying in 1s · attempt 5/10"',
      'screen shows "■ unexpected status 401 Unauthorized: invalid x-api-key, url: '
        + 'http://127.0.0.1:41251/v1/responses"',
      'screen shows "✕ [API Error: {"error":{"code":401,"message":"invalid x-api-key","status":"UNAUTHENTICATED"}}]"',
      'screen shows "invalid x-api-key"',
    ]);
    const ctx = { agent: "c-1", runtime: "cl", program: "claude", home: null, homeEnv: null };
    expect(describeFix({ kind: "key-refused", reason: reasons[0]! }, ctx)).toBe(
      "claude's model service refused its key (401): export a valid key in your shell and name it under "
        + "runtimes.cl.pass_env (or fix the service URL under runtimes.cl.env), then restart c-1",
    );
    // A tool's own output that mentions a 401 is the agent's business, not a refused key.
    expect(detectScreen("claude", ["⎿  curl: (22) The requested URL returned error: 401", "❯ "]).kind).toBe("idle");
  });

  test("a server error the CLI has given up on blocks with the fix that names the service, never a login; "
    + "its own retries are working", async () => {
    const ctx = { agent: "x-1", runtime: "cx", program: "codex", home: null, homeEnv: null };
    const gaveUp = detectScreen("codex", await screen("codex-0.169.0-server-error"));
    expect(gaveUp).toEqual({
      kind: "service-error",
      reason: 'screen shows "■ We’re currently experiencing high demand, which may cause temporary errors."',
    });
    expect(detectScreen("codex", await screen("codex-0.169.0-stream-disconnected")).reason).toBe(
      'screen shows "■ stream disconnected before completion: stream closed before response.completed"',
    );
    expect(describeFix(gaveUp, ctx)).toBe(
      "codex's model service keeps failing on its side (a server error, not a login or key problem): "
        + "check the provider's status page, or the service URL under runtimes.cx.env; "
        + "org nudges x-1 to try again after runtimes.cx.nudge_after",
    );
    expect(detectScreen("codex", await screen("codex-0.169.0-retrying-500")).reason).toBe(
      'screen shows "• Reconnecting... 3/5 (12s • esc to interrupt)"',
    );
    expect(detectScreen("claude", await screen("claude-2.1.328-retrying-500")).reason).toBe(
      'screen shows "⏵⏵ bypass permissions on (shift+tab to cycle) · esc to interrupt"',
    );
    expect(detectScreen("opencode", await screen("opencode-1.18.33-server-error")).reason).toBe(
      'screen shows "Internal server error $0.00 spent"',
    );
    expect(detectScreen("claude", await screen("claude-2.1.328-connection-dropped")).reason).toBe('screen shows "● API '
      + 'Error: Connection dropped (ECONNRESET). Check the gateway set in ANTHROPIC_BASE_URL, then try again."');
    expect(detectScreen("gemini", await screen("gemini-0.61.0-malformed-reply")).reason).toBe(
      `screen shows "✕ [API Error: Expected property name or '}' in JSON at position 1]"`,
    );
    expect(detectScreen("claude", await screen("claude-2.1.328-server-error")).reason).toBe('screen shows "● API '
      + 'Error: 500 Internal server error. This is a server-side issue, usually temporary — try again in a moment."');
    // 1.18.33 on a stream the service closed mid-event: its own retry,
    // not the network (the row is wider than a fixture's 119 columns).
    const dropped = "   ⬝⬝⬝⬝⬝⬝⬝⬝ Cannot connect to API: The socket connection was closed unexpectedly. "
      + "For more i… (click to expand) [retrying in 1s attempt #2]    esc interrupt";
    expect(detectScreen("opencode", ["  ┃  Begin the research.", dropped])).toEqual({
      kind: "working", reason: `screen shows "${dropped.trim().replace(/\s{2,}/g, " ")}"`,
    });
    // Once the agent has gone on, the old error scrolls out of the last rows and the prompt is idle again.
    const later = [
      ...(await screen("codex-0.169.0-server-error")).filter((row) => row.trim() !== "").slice(0, -3),
      "• Ran printf '0.7' > params.txt", "  └ (no output)", "─ Worked for 2s ─", "• Submitted.",
      "› Ask Codex to do anything", "  ? for shortcuts",
    ];
    expect(detectScreen("codex", later).kind).toBe("idle");
    const geminiLater = (await screen("gemini-0.61.0-malformed-reply")).filter((row) => row.trim() !== "");
    geminiLater.splice(geminiLater.findIndex((row) => row.startsWith("⚠")), 0, "> Keep going", "✦ Recovered.");
    expect(detectScreen("gemini", geminiLater).kind).toBe("idle");
  });

  test("a refusal says which, so its fix fits: root for claude's flag, headless for gemini under CI=true", async () => {
    const ctx = { agent: "g-1", runtime: "gem", program: "gemini", home: null, homeEnv: null };
    const headless = detectScreen("gemini", await screen("gemini-0.61.0-headless-untrusted"), false);
    expect(headless).toEqual({
      kind: "refused", refusal: "headless",
      reason: 'screen shows "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, '
        + 'set the `GEMINI_CLI_TRUST_WORKS"',
    });
    expect(describeFix(headless, ctx)).toBe('gemini takes its pane for a headless run (CI=true or GITHUB_ACTIONS=true '
      + 'reaches it) and will not ask to trust the folder: set CI: "false" and GITHUB_ACTIONS: '
      + '"false" under runtimes.gem.env, or leave runtimes.gem.trust out to keep the preset\'s flag that trusts it');
    // A narrow pane splits the first phrase; another one still names it.
    const narrow = [
      "Gemini CLI is not running in a trus", "ted directory. To proceed, either use",
      "set the `GEMINI_CLI_TRUST_WORKSPACE=true`",
    ];
    expect(detectScreen("gemini", narrow, false)).toMatchObject({ kind: "refused", refusal: "headless" });
    const root = detectScreen("claude", await screen("claude-root-refused"), false);
    expect(root).toMatchObject({ kind: "refused", refusal: "root" });
    expect(describeFix(root, { ...ctx, runtime: "cl" })).toBe(
      'run org as a non-root user, or inside a sandbox set IS_SANDBOX: "1" under runtimes.cl.env, '
        + 'or drop the flag with runtimes.cl.unattended: []',
    );
  });

  test("the usage limit carries the reset time shown, and the trust dialog its answer", async () => {
    expect(detectScreen("claude", await screen("claude-usage-limit"))).toMatchObject({ resetText: "5pm (UTC)." });
    expect(detectScreen("codex", await screen("codex-usage-limit"))).toMatchObject({ resetText: "2 hours 14 minutes" });
    expect(detectScreen("claude", await screen("claude-trust"))).toMatchObject({ keys: ["Enter"] });
  });

  test("reset times: relative, clock with zone, clock without one, none", () => {
    const now = Date.parse("2026-11-29T16:30:00Z");
    expect(parseResetTime("2 hours 14 minutes", now)).toBe(now + (2 * 60 + 14) * 60_000);
    expect(parseResetTime("5pm (UTC).", now)).toBe(Date.parse("2026-11-29T17:00:00Z"));
    expect(parseResetTime("3pm (UTC)", now)).toBe(Date.parse("2026-11-30T15:00:00Z"));
    expect(parseResetTime("5pm (America/New_York)", now)).toBe(Date.parse("2026-11-29T22:00:00Z"));
    expect(parseResetTime("soon", now)).toBeNull();
  });
});
