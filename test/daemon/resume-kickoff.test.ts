import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { noteRestart, ResumeKickoffs, type KickoffLook } from "../../src/daemon/resume-kickoff-service.js";
import { ConfigSchema } from "../../src/domain/config/schema.js";
import { buildLaunchSpec, planAgents } from "../../src/domain/lifecycle/plan-agents.js";
import { PRESETS, PRESET_NAMES } from "../../src/domain/runtimes/runtime-presets.js";
import {
  decideResumeKickoff, pendResumeKickoff, RESUME_KICKOFF_BOUND_MS,
} from "../../src/domain/screens/resume-kickoff.js";
import type { ScreenState } from "../../src/domain/screens/screen-state.js";
import type { LaunchSpec } from "../../src/domain/state.js";
import { makeTempDir, removeDir } from "../helpers/temp-repo.js";

const KICKOFF = "Begin the research.";
const T0 = Date.parse("2026-12-04T12:00:00Z");
const IDLE: ScreenState = { kind: "idle", reason: "screen shows \"ctrl+p commands\"" };
const WORKING: ScreenState = { kind: "working", reason: "screen shows \"esc interrupt\"" };
const pending = pendResumeKickoff("%1", T0);
const input = {
  record: pending,
  kickoff: KICKOFF,
  paneId: "%1",
  screen: IDLE,
  alive: true,
  unchangedMs: 1_000,
  now: T0 + 9_000,
};

describe("when a resumed CLI's kickoff is typed", () => {
  test("at its settled prompt, within the bound: typed, with the reason", () => {
    expect(decideResumeKickoff(input)).toEqual({
      kind: "type",
      text: KICKOFF,
      reason: "at its prompt 9s after the resume, which dropped the kickoff",
    });
  });

  test("not yet: while it starts, draws, or is not running", () => {
    expect(decideResumeKickoff({ ...input, screen: WORKING })).toEqual({
      kind: "wait",
      reason: `not at its prompt yet (${WORKING.reason})`,
    });
    expect(decideResumeKickoff({ ...input, unchangedMs: 999 })).toEqual({
      kind: "wait",
      reason: "at its prompt, still drawing",
    });
    expect(decideResumeKickoff({ ...input, alive: false })).toEqual({
      kind: "wait",
      reason: "the resumed program is not running",
    });
  });

  test("only once: a record marked done is never typed again, whatever the screen", () => {
    const typed = { ...pending, done: { at: "2026-12-04T12:00:09.000Z", outcome: "typed" as const } };
    expect(decideResumeKickoff({ ...input, record: typed })).toEqual({
      kind: "none",
      reason: "the resumed kickoff was typed at 2026-12-04T12:00:09.000Z",
    });
  });

  test("never for a CLI that takes its kickoff from the resume argv, " +
    "a start with nothing pending, or another pane", () => {
    expect(decideResumeKickoff({ ...input, kickoff: null }).kind).toBe("none");
    expect(decideResumeKickoff({ ...input, kickoff: undefined }).kind).toBe("none");
    expect(decideResumeKickoff({ ...input, record: undefined })).toEqual({ kind: "none", reason: "no resume pending" });
    expect(decideResumeKickoff({ ...input, paneId: "%7" })).toEqual({
      kind: "none",
      reason: "resumed in pane %1, not this one",
    });
  });

  test("no prompt within the bound: given up, and the idle nudge takes over", () => {
    const late = { ...input, screen: WORKING, now: T0 + RESUME_KICKOFF_BOUND_MS + 1 };
    expect(decideResumeKickoff(late)).toEqual({
      kind: "give-up",
      reason: "no prompt 120s after the resume: the idle nudge takes over",
    });
    expect(decideResumeKickoff({ ...late, now: T0 + RESUME_KICKOFF_BOUND_MS }).kind).toBe("wait");
  });
});

describe("which presets' resume drops the kickoff", () => {
  const specFor = (preset: string) => {
    const config = ConfigSchema.parse({
      name: "toy",
      runtimes: { r: { preset } },
      roles: { researcher: { prompt: "p.md", runtime: "r", kickoff: KICKOFF } },
    });
    const [agent] = planAgents(config, "/o/worktrees", new Map([["researcher-1", null]]));
    const context = {
      state: "/o/state",
      root: "/o",
      orgArgv: ["/node", "/pkg/bin/org.js"],
      binDir: "/o/state/bin",
      basePath: "/usr/bin",
    };
    return buildLaunchSpec(config, agent!, context);
  };

  test("opencode alone (1.18.33 ignores --prompt with --continue); launch.json carries its kickoff to type", () => {
    expect(PRESET_NAMES.filter((name) => PRESETS[name].kickoff_on_resume === "type")).toEqual(["opencode"]);
    expect(specFor("opencode").runtime?.typeOnResume).toBe(KICKOFF);
    for (const preset of ["claude", "codex", "gemini"])
      expect(specFor(preset).runtime?.typeOnResume, preset).toBeNull();
  });
});

describe("the daemon's side: recorded before it types, so a restarted daemon never types it twice", () => {
  let state: string;
  const spec = { agent: "a", runtime: { typeOnResume: KICKOFF } } as LaunchSpec;
  const file = () => join(state, "agents", "a", "resume-kickoff.json");
  const look = (typed: string[], now: number, screen: ScreenState = IDLE): KickoffLook => ({
    pane: { id: "%1", agent: "a", pid: 42, dead: false, exitCode: null, exitSignal: null, exitedAt: null },
    spec, screen, alive: true, unchangedMs: 5_000, now,
    canType: async () => true,
    type: async (text) => void typed.push(`${text} (done: ${JSON.parse(readFileSync(file(), "utf8")).done?.outcome})`),
  });
  beforeEach(() => {
    state = makeTempDir("org-resume-kickoff-");
    mkdirSync(join(state, "agents", "a"), { recursive: true });
  });
  afterEach(() => removeDir(state));

  test("a resume pends it; the first look at the prompt types it once; a second daemon reads it as done", async () => {
    await noteRestart(state, spec, "%1", true, T0);
    const typed: string[] = [];
    const first = new ResumeKickoffs(state);
    expect(await first.look(look(typed, T0 + 1_000, WORKING))).toBeNull();
    expect(first.isWaiting()).toBe(true);
    // An agent no longer watched (a reload removed it) keeps no one waiting.
    first.retain(new Set(["b"]));
    expect(first.isWaiting()).toBe(false);
    expect(await first.look(look(typed, T0 + 3_000))).toBe(KICKOFF);
    expect(await first.look(look(typed, T0 + 6_000))).toBeNull();
    expect(await new ResumeKickoffs(state).look(look(typed, T0 + 9_000))).toBeNull();
    expect(typed).toEqual([`${KICKOFF} (done: typed)`]);
    expect(first.isWaiting()).toBe(false);
    expect(readFileSync(join(state, "log.md"), "utf8")).toContain(`typed "${KICKOFF}"`);
    expect(readFileSync(join(state, "agents", "a", "events.jsonl"), "utf8")).toContain(
      '"type":"resume-kickoff","outcome":"typed"',
    );
  });

  test("no prompt within the bound: logged once as given up, " +
    "nothing typed; a fresh start clears the record", async () => {
    await noteRestart(state, spec, "%1", true, T0);
    const typed: string[] = [];
    const watch = new ResumeKickoffs(state);
    expect(await watch.look(look(typed, T0 + RESUME_KICKOFF_BOUND_MS + 1, WORKING))).toBeNull();
    expect(await watch.look(look(typed, T0 + RESUME_KICKOFF_BOUND_MS + 2))).toBeNull();
    expect(typed).toEqual([]);
    expect(readFileSync(join(state, "log.md"), "utf8").match(/resume-kickoff/g)).toHaveLength(1);
    expect(JSON.parse(readFileSync(file(), "utf8")).done.outcome).toBe("gave-up");
    await noteRestart(state, spec, "%1", false, T0);
    expect(existsSync(file())).toBe(false);
  });
});
