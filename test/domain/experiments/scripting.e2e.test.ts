// Scripting (docs/scripting.md): each --json output parses and has its documented shape; an error under --json is one
// {"error": …} object on stdout; every command exits by the one table, with --json and without.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { ConfigError, OrgError } from "../../../src/domain/errors.js";
import type { VerdictFile } from "../../../src/domain/experiments/submit-reply.js";
import {
  decideExitCode, describeAnswerJson, describeErrorJson, EXIT, parseProblem,
} from "../../../src/domain/scripting/index.js";
import { listQueue } from "../../../src/adapters/store/queue.js";
import { runOrgAsync } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { makeTempDir, removeDir, writeFiles } from "../../helpers/temp-repo.js";
import { createTestOrg, type OrgOnDisk } from "../../helpers/test-org/index.js";

const ID = "2026-12-02T00-00-00-000Z-researcher-1-abcdef0";

async function org(dir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["-C", dir, ...args], { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function verdictFile(commit: string, base: string): VerdictFile {
  const request = {
    id: ID, agent: "researcher-1", commit, description: "double it", kind: "candidate" as const,
    submittedAt: "2026-12-02T00:00:00.000Z",
  };
  return {
    id: ID,
    best: { commit: base, metric: 1 },
    outcome: {
      request, verdict: { kind: "discard", metric: 2, delta: 1, reason: "discard: 2.0000 not better than best 1.0000" },
      metric: 2, memoryGb: undefined,
      seconds: 1, runSeconds: 1, samples: [2], logFile: "state/runs/x.log", logTail: "", head: base,
      patch: "state/patches/p.patch",
    },
  };
}

describe("the JSON pieces", () => {
  test("a problem line comes apart into file, line, col, message, fix and severity", () => {
    expect(parseProblem('org.yaml:8:25: roles.researcher.prompt file "p.md" does not exist — create it')).toEqual({
      file: "org.yaml", line: 8, col: 25, message: 'roles.researcher.prompt file "p.md" does not exist',
      fix: "create it", severity: "error",
    });
    expect(parseProblem("org.yaml: not found in /x — run `org init` to create one")).toEqual({
      file: "org.yaml", line: null, col: null, message: "not found in /x", fix: "run `org init` to create one",
      severity: "error",
    });
    expect(parseProblem("warning: draft.yaml:1:1: odd")).toEqual({
      file: "draft.yaml", line: 1, col: 1, message: "odd", fix: null, severity: "warning",
    });
  });

  test("an error: its code, its message and fix split at the dash; "
    + "a config error with each problem; its exit status", () => {
    const usage = new OrgError("which experiment? — run `org wait <id>`", "usage");
    expect(describeErrorJson(usage)).toEqual({
      error: { code: "usage", message: "which experiment?", fix: "run `org wait <id>`" },
    });
    expect(describeErrorJson(new OrgError("the queue is full", "queue-full"))).toEqual({
      error: { code: "queue-full", message: "the queue is full", fix: null },
    });
    const config = new ConfigError(["org.yaml:1:1: bad — fix a", "org.yaml:2:3: worse — fix b"]);
    expect(describeErrorJson(config)).toEqual({
      error: {
        code: "config", message: "org.yaml has 2 problems", fix: "fix each problem as it says", problems: [
          { file: "org.yaml", line: 1, col: 1, message: "bad", fix: "fix a", severity: "error" },
          { file: "org.yaml", line: 2, col: 3, message: "worse", fix: "fix b", severity: "error" },
        ],
      },
    });
    expect([usage, new OrgError("x", "no-state"), config, new Error("bug")].map(decideExitCode)).toEqual([2, 1, 1, 70]);
    expect(EXIT).toEqual({ ok: 0, failure: 1, usage: 2, internal: 70 });
  });

  test("an answer: the verdict's fields and the lines org submit prints; a cancel is verdict cancelled", () => {
    expect(describeAnswerJson(verdictFile("abcdef0123", "base000"))).toEqual({
      id: ID, commit: "abcdef0123", judged: "abcdef0123", description: "double it", verdict: "discard",
      reason: "discard: 2.0000 not better than best 1.0000",
      metric: 2, delta: 1, best: { commit: "base000", metric: 1 }, head: "base000", patch: "state/patches/p.patch",
      logFile: "state/runs/x.log", logTail: null,
      lines: [
        "metric 2.000000 · your best 1.000000 (base000) · delta +1.000000 · discard",
        "discard: 2.0000 not better than best 1.0000",
        "your branch was reset to base000; the diff is saved in state/patches/p.patch",
      ],
    });
    expect(
      describeAnswerJson({ id: ID, commit: "abcdef0123", description: "double it", cancelled: "the org stopped" }),
    ).toMatchObject({
      verdict: "cancelled", reason: "the org stopped", metric: null,
      lines: ['not run: abcdef0 "double it" was cancelled: the org stopped'],
    });
  });
});

describe("--json on validate, doctor, submit and wait", () => {
  let fixture: OrgOnDisk;
  // The test plays the daemon: a heartbeat older than 15 s would read as a daemon gone.
  const beat = () => writeFiles(fixture.dir, {
    "state/daemon.json": JSON.stringify({ pid: process.pid, heartbeatAt: new Date().toISOString(), queuePerAgent: 2 }),
  });
  beforeAll(() => {
    fixture = createTestOrg({ daemon: false, judged: true });
  });
  afterAll(() => removeDir(fixture.dir));

  test("validate: the counts when valid; every problem as an object when not, exit 1", async () => {
    expect(await org(fixture.dir, ["validate", "--json"])).toEqual({
      code: 0,
      err: "",
      out: JSON.stringify(
        { valid: true, file: "org.yaml", roles: 1, agents: 1, runtimes: ["idle"], problems: [] },
        null,
        2,
      ),
    });
    const bad = makeTempDir();
    try {
      writeFiles(bad, {
        "org.yaml": "name: t\nrepo: .\nbase: main\ngpus: none\nroles:\n"
          + "  researcher: { prompt: p.md, runtime: idle, count: 0 }\n",
      });
      const text = await org(bad, ["validate"]);
      const json = await org(bad, ["validate", "--json"]);
      expect([json.code, json.err, text.code]).toEqual([1, "", 1]);
      const parsed = JSON.parse(json.out) as {
        valid: boolean;
        problems: { file: string; line: number; col: number; message: string; fix: string }[];
      };
      expect(parsed.valid).toBe(false);
      // The same problems as the text, field by field.
      expect(parsed.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message} — ${p.fix}`))
        .toEqual(text.err.split("\n"));
      expect(parsed.problems.length).toBeGreaterThan(1);
    } finally {
      removeDir(bad);
    }
  });

  test("doctor: every check with status, detail and fix; ok and the exit status agree", async () => {
    const { code, out, err } = await org(fixture.dir, ["doctor", "--json"]);
    const parsed = JSON.parse(out) as {
      ok: boolean;
      checks: { name: string; status: string; detail: string; fix: string | null }[];
      config: object;
    };
    expect([err, code]).toEqual(["", parsed.ok ? 0 : 1]);
    expect(parsed.checks.map((check) => check.name).slice(0, 3)).toEqual(["node", "git", "tmux"]);
    for (const check of parsed.checks) expect(Object.keys(check)).toEqual(["name", "status", "detail", "fix"]);
    expect(parsed.config).toEqual({ valid: true, problems: [] });
  });

  test("wait: the answer as an object, exit 0; a cancelled one exit 1", async () => {
    mkdirSync(join(fixture.dir, "state", "verdicts"), { recursive: true });
    writeFileSync(
      join(fixture.dir, "state", "verdicts", `${ID}.json`),
      JSON.stringify(verdictFile("abcdef0123", fixture.base)),
    );
    const judged = await org(fixture.dir, ["wait", ID, "--json"]);
    expect([judged.code, judged.err, JSON.parse(judged.out)]).toEqual([
      0, "", describeAnswerJson(verdictFile("abcdef0123", fixture.base)),
    ]);
    const other = ID.replace("abcdef0", "abcdef1");
    writeFileSync(
      join(fixture.dir, "state", "verdicts", `${other}.json`),
      JSON.stringify({ id: other, commit: "abcdef1", description: "x", cancelled: "the org stopped" }),
    );
    const cancelled = await org(fixture.dir, ["wait", other, "--json"]);
    expect([cancelled.code, (JSON.parse(cancelled.out) as { verdict: string }).verdict]).toEqual([1, "cancelled"]);
  });

  test("submit: --no-wait gives the id with verdict null; waiting, the answer; "
    + "stdout holds the JSON alone", async () => {
    beat();
    // Beating on while the submits run: on a loaded machine they may outlast one heartbeat's life.
    const beating = setInterval(beat, 1000);
    onTestFinished(() => clearInterval(beating));
    writeFileSync(join(fixture.worktree, "value.txt"), "2\n");
    // Killed at 12 s, a command that waits in vain says how far it got.
    const queued = await runOrgAsync(["submit", "--no-wait", "--json", "-m", "double it"], {
      cwd: fixture.worktree,
      timeoutMs: 12_000,
    });
    expect([queued.code, queued.stderr, queued.code === 0 ? "" : queued.stdout]).toEqual([0, "", ""]);
    const first = JSON.parse(queued.stdout) as { id: string; commit: string };
    expect(first).toEqual({
      id: expect.stringMatching(/-researcher-1-[0-9a-f]{7}$/), commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      description: "double it", verdict: null,
    });

    writeFileSync(join(fixture.worktree, "value.txt"), "3\n");
    const waiting = runOrgAsync(["submit", "--json", "-m", "triple it"], { cwd: fixture.worktree, timeoutMs: 12_000 });
    // The test plays the verifier: the second request gets its verdict file.
    // Read through the queue's owner: a name listed in the folder may be the request's temporary file, mid-write.
    const id = await pollUntil(async () =>
      (await listQueue(join(fixture.dir, "state"))).map((request) => request.id).find((name) => name !== first.id), {
      what: "the second request",
    });
    // Made here too: the test reads alone (`-t`), without the wait test's folder.
    mkdirSync(join(fixture.dir, "state", "verdicts"), { recursive: true });
    writeFileSync(
      join(fixture.dir, "state", "verdicts", `${id}.json`),
      JSON.stringify({ ...verdictFile("c0ffee0", fixture.base), id }),
    );
    const waited = await waiting;
    expect([waited.code, waited.code === 0 ? "" : waited.stderr]).toEqual([0, ""]);
    expect([waited.code, JSON.parse(waited.stdout)]).toEqual([
      0,
      { ...describeAnswerJson(verdictFile("c0ffee0", fixture.base)), id },
    ]);
    expect(waited.stderr).toMatch(/^submitted [0-9a-f]{7} "triple it"; waiting for the verifier…\n$/);
  });
});

// [args, fixture, exit status, has --json]: the table of docs/scripting.md, command by command.
const TABLE: [string[], "empty" | "org", number, boolean][] = [
  [["--version"], "empty", 0, false],
  [["validate"], "org", 0, true],
  [["status"], "org", 0, true],
  [["results"], "org", 0, true],
  [["history"], "org", 0, true],
  [["tried"], "org", 0, true],
  [["claims"], "org", 0, true],
  [["validate"], "empty", 1, true],
  [["status"], "empty", 1, true],
  [["results"], "empty", 1, true],
  [["history"], "empty", 1, true],
  [["tried"], "empty", 1, true],
  [["report"], "empty", 1, false],
  [["compare"], "empty", 1, true],
  [["lineage"], "empty", 1, true],
  [["lineage"], "org", 1, true],
  [["claims"], "empty", 1, true],
  [["plan"], "empty", 1, true],
  [["plan"], "org", 1, true],
  [["submit"], "empty", 1, true],
  [["wait", "x"], "empty", 1, true],
  [["logs", "a"], "empty", 1, false],
  [["wait"], "empty", 2, true],
  [["logs"], "empty", 2, false],
  [["no-such-command"], "empty", 2, true],
  [["status", "--no-such-option"], "empty", 2, true],
  [["report", "--x", "sideways"], "empty", 2, false],
  [["confirm", "abcdef0", "-n", "0"], "empty", 2, false],
  [["compare", "a1b2c3d4"], "empty", 2, true],
];

describe("exit codes: one table for every command, the same with --json", () => {
  const dirs = { empty: "", org: "" };
  beforeAll(() => {
    dirs.empty = makeTempDir();
    dirs.org = createTestOrg({ daemon: false, judged: true }).dir;
  });
  afterAll(() => Object.values(dirs).forEach(removeDir));

  test.each(TABLE)("org %j in the %s folder exits %i", async (args, fixture, code, json) => {
    const plain = await org(dirs[fixture], args);
    expect(plain.code).toBe(code);
    if (code !== 0) expect(plain.out).toBe("");
    if (!json) return;
    const scripted = await org(dirs[fixture], [...args, "--json"]);
    expect([scripted.code, scripted.err]).toEqual([code, ""]);
    const parsed = JSON.parse(scripted.out) as {
      error?: { code: unknown; message: unknown; fix: unknown };
      valid?: boolean;
    };
    // A failure is an {"error": …} object, save validate's, whose answer is its problems.
    if (code === 0 || parsed.valid === false) expect(parsed).not.toHaveProperty("error");
    else {
      expect(parsed.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(parsed.error?.fix === null || typeof parsed.error?.fix === "string").toBe(true);
    }
    if (code === 2) expect(parsed.error?.code).toBe("usage");
  });
});
