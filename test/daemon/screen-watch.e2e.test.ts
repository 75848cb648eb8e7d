import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ScreenWatch, type ScreenPort } from "../../src/daemon/screen-watch.js";
import type { AgentStatus } from "../../src/domain/state.js";
import { FIXTURES } from "../helpers/org-cli.js";
import { PaneLab, writeAgentState } from "../helpers/screen-panes.js";
import { pollUntil } from "../helpers/poll.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";
import { bin } from "../helpers/test-org/index.js";

/** The real tmux port, with every keystroke it sends counted. */
function countingPort(lab: PaneLab): ScreenPort & { sent: string[] } {
  const port = lab.openScreenPort();
  const sent: string[] = [];
  return {
    sent,
    capture: (ids) => port.capture(ids),
    paneAlive: (id) => port.paneAlive!(id),
    async sendLine(id, text) {
      sent.push(text);
      await port.sendLine(id, text);
    },
    async sendKeys(id, keys) {
      sent.push(keys.join(" "));
      await port.sendKeys(id, keys);
    },
  };
}

describe("screen watch on fake CLIs in real tmux panes", () => {
  let lab: PaneLab;
  let dir: string;
  let state: string;
  beforeEach(() => {
    lab = new PaneLab();
    dir = makeTempDir("org-screen-");
    state = join(dir, "state");
  });
  afterEach(() => {
    lab.close();
    removeDir(dir);
  });

  const typed = () => (existsSync(join(dir, "typed.log")) ? readFileSync(join(dir, "typed.log"), "utf8") : "");
  const fake = (agent: string, env: Record<string, string>) => {
    const id = lab.start(
      agent,
      [bin("fake-agent-cli"), "--dangerously-skip-permissions", "Read your system prompt and begin."],
      { FAKE_TYPED_LOG: join(dir, "typed.log"), ...env },
      dir,
    );
    return id;
  };
  const ready = (id: string, text: string) => pollUntil(() => lab.screen(id).includes(text), { what: text });
  const status = (agent: string) =>
    JSON.parse(readFileSync(join(state, "agents", agent, "status.json"), "utf8")) as AgentStatus;

  test("a CLI that ignores the kickoff sits idle: it is nudged once " +
    "its screen is unchanged long enough, then capped", async () => {
    const id = fake("a", { FAKE_SCREEN: "claude-idle", FAKE_AFTER: "claude-working" });
    await ready(id, "bypass permissions");
    writeAgentState(
      state,
      "a",
      { preset: "claude", watch: { nudge: "Keep going.", nudgeAfterMs: 60_000, nudgesPerHour: 1, answerTrust: false } },
      lab.panes()[0]!.pid,
    );
    const port = countingPort(lab);
    const watch = new ScreenWatch(state, port);
    const t0 = Date.now();
    expect((await watch.tick(lab.panes(), t0))[0]).toMatchObject({
      screen: { kind: "idle" },
      decision: { kind: "none" },
      typed: null,
    });
    expect((await watch.tick(lab.panes(), t0 + 61_000))[0]).toMatchObject({
      decision: { kind: "nudge" },
      typed: "Keep going.",
    });
    await pollUntil(() => typed() === "Keep going.\n", { what: "the nudge to arrive as one submitted line" });
    await ready(id, "esc to interrupt");
    expect((await watch.tick(lab.panes(), t0 + 62_000))[0]).toMatchObject({ screen: { kind: "working" }, typed: null });
    const events = readFileSync(join(state, "agents", "a", "events.jsonl"), "utf8");
    expect(events).toContain('"decision":"nudge"');
    expect(readFileSync(join(state, "log.md"), "utf8")).toContain('typed "Keep going."');
    expect(port.sent).toEqual(["Keep going."]);
  });

  test("a nudge when the agent died is never typed", async () => {
    const id = fake("b", { FAKE_SCREEN: "claude-idle", FAKE_EXIT: "0" });
    await pollUntil(() => lab.panes()[0]?.dead, { what: "the fake CLI to exit" });
    writeAgentState(state, "b", { preset: "claude" }, null);
    const port = countingPort(lab);
    const watch = new ScreenWatch(state, port);
    const outcomes = [
      ...(await watch.tick(lab.panes(), Date.now())),
      ...(await watch.tick(lab.panes(), Date.now() + 3_600_000)),
    ];
    expect(outcomes.map((outcome) => outcome.typed)).toEqual([null, null]);
    expect(outcomes[1]!.decision.kind).toBe("none");
    // Alive in tmux's listing but dead by the time we would type (the pid check): still nothing typed.
    const alivePane = { ...lab.panes()[0]!, dead: false };
    const racing = new ScreenWatch(state, port, () => false);
    await racing.tick([alivePane], Date.now());
    await racing.tick([alivePane], Date.now() + 3_600_000);
    expect(port.sent).toEqual([]);
    expect(lab.screen(id)).not.toContain("Keep going");
  });

  test("garbage and exit 127: unknown and shell, nothing typed, the agent not blocked", async () => {
    fake("g", { FAKE_SCREEN: "garbage" });
    lab.start("n", ["/bin/sh", "-c", "echo 'sh: 1: claude: not found'; sleep 0.5; exit 127"], {}, dir);
    await pollUntil(() => lab.panes().find((pane) => pane.agent === "n")?.dead, { what: "exit 127" });
    for (const agent of ["g", "n"]) writeAgentState(state, agent, { preset: "claude" }, null);
    const port = countingPort(lab);
    const watch = new ScreenWatch(state, port);
    await watch.tick(lab.panes(), Date.now());
    const outcomes = await watch.tick(lab.panes(), Date.now() + 3_600_000);
    expect(
      Object.fromEntries(outcomes.map((outcome) => [outcome.agent, [outcome.screen.kind, outcome.decision.kind]])),
    ).toEqual({ g: ["unknown", "none"], n: ["shell", "none"] });
    expect(port.sent).toEqual([]);
    expect(status("g").state).toBe("running");
  });

  test("a trust dialog: answered when the org allows it, else blocked with the fix and left alone", async () => {
    const yes = fake("y", { FAKE_SCREEN: "claude-trust", FAKE_AFTER: "claude-idle" });
    const no = fake("z", { FAKE_SCREEN: "claude-trust" });
    await ready(yes, "Yes, proceed");
    await ready(no, "Yes, proceed");
    const pids = new Map(lab.panes().map((pane) => [pane.agent, pane.pid]));
    writeAgentState(
      state,
      "y",
      { preset: "claude", watch: { nudge: "k", nudgeAfterMs: 60_000, nudgesPerHour: 3, answerTrust: true } },
      pids.get("y")!,
    );
    writeAgentState(state, "z", { preset: "claude", name: "cc" }, pids.get("z")!);
    const port = countingPort(lab);
    const outcomes = await new ScreenWatch(state, port).tick(lab.panes(), Date.now());
    expect(outcomes.map((outcome) => [outcome.agent, outcome.decision.kind, outcome.typed])).toEqual([
      ["y", "answer-trust", "Enter"],
      ["z", "block", null],
    ]);
    await ready(yes, "bypass permissions");
    expect(status("z")).toMatchObject({
      state: "blocked",
      reason: expect.stringContaining("let org answer it with runtimes.cc.answer_trust: true"),
    });
    expect(port.sent).toEqual(["Enter"]);
  });

  test("a usage limit: the agent waits for the reset shown, nothing typed, no restart", async () => {
    const id = fake("l", { FAKE_SCREEN: "codex-usage-limit" });
    await ready(id, "usage limit");
    writeAgentState(state, "l", { preset: "codex" }, lab.panes()[0]!.pid);
    const port = countingPort(lab);
    const watch = new ScreenWatch(state, port);
    const now = Date.now();
    const [outcome] = await watch.tick(lab.panes(), now);
    expect(outcome!.decision).toEqual({
      kind: "wait",
      until: now + (2 * 60 + 14) * 60_000,
      reason: "usage limit: resets 2 hours 14 minutes",
    });
    expect((await watch.tick(lab.panes(), now + 60 * 60_000))[0]!.decision.kind).toBe("wait");
    expect((await watch.tick(lab.panes(), now + 135 * 60_000))[0]).toMatchObject({
      decision: { kind: "nudge" },
      typed: "Keep going.",
    });
    expect(status("l").state).toBe("running");
    expect(readFileSync(join(state, "log.md"), "utf8")).toContain("waiting");
  });
});

test("a screen that moves on between the look and the keystroke takes no keys: " +
  "gemini's trust dialog turning into its sign-in menu", async () => {
  const dir = makeTempDir("org-screen-moved-");
  try {
    const state = join(dir, "state");
    writeAgentState(
      state,
      "g",
      { preset: "gemini", watch: { nudge: "Keep going.", nudgeAfterMs: 60_000, nudgesPerHour: 3, answerTrust: true } },
      process.pid,
    );
    const fixture = (name: string) => readFileSync(join(FIXTURES, "screens", `${name}.txt`), "utf8");
    const screens = [fixture("gemini-0.61.0-trust"), fixture("gemini-0.61.0-sign-in")];
    const sent: string[] = [];
    const port: ScreenPort = {
      capture: async (ids) => new Map(ids.map((id) => [id, screens.length > 1 ? screens.shift()! : screens[0]!])),
      paneAlive: async () => true,
      sendLine: async (_, text) => void sent.push(text),
      sendKeys: async (_, keys) => void sent.push(keys.join(" ")),
    };
    const [outcome] = await new ScreenWatch(state, port).tick([
      { agent: "g", id: "%1", pid: process.pid, dead: false, exitCode: null, exitSignal: null, exitedAt: null },
    ]);
    expect(outcome).toMatchObject({ decision: { kind: "answer-trust" }, typed: null });
    expect(sent).toEqual([]);
  } finally {
    removeDir(dir);
  }
});

describe("a dead pane's screen", () => {
  test("is looked at once more when it names no reason: tmux can mark " +
    "a pane dead before it draws the program's last words", async () => {
    const dir = makeTempDir("org-screen-");
    try {
      const state = join(dir, "state");
      writeAgentState(state, "r-1", { preset: "claude" }, null);
      const screens = ["", "Unable to connect to Anthropic services\n"];
      let captures = 0;
      const port: ScreenPort = {
        capture: async (ids) => new Map([[ids[0]!, screens[Math.min(captures++, 1)]!]]),
        sendLine: async () => {},
        sendKeys: async () => {},
      };
      const pane = {
        agent: "r-1",
        id: "%1",
        pid: 123,
        dead: true,
        exitCode: 1,
        exitSignal: null,
        exitedAt: Date.now(),
      };
      expect(await new ScreenWatch(state, port).whyBlocked(pane)).toMatch(
        /^screen shows "Unable to connect to Anthropic services" — this machine cannot reach claude's service/,
      );
      expect(captures).toBe(2);
    } finally {
      removeDir(dir);
    }
  });
});
