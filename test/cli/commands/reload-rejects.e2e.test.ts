import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ReloadRecord } from "../../../src/domain/reconcile/reload-record.js";
import { fakeGpuEnv, runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import {
  bin, createTestOrg, PROMPT, readJsonFile, readOrgSnapshot, teardownOrg, type TestOrg, tmux,
} from "../../helpers/test-org/index.js";

const good = (name: string) => `name: ${name}
repo: .
base: main
gpus: auto
runtimes:
  printer: { command: ["${bin("print-env-sleep")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 2, gpu: true }
`;

// Two idle GPUs, both leased by the two researchers.
const env = fakeGpuEnv([
  "0, GPU-00000000-aaaa, NVIDIA H100 80GB HBM3, 1, 81559",
  "1, GPU-00000001-aaaa, NVIDIA H100 80GB HBM3, 1, 81559",
]);

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("bad edits of a running org's org.yaml", () => {
  test("each is rejected with its clear error and the org stays exactly as it was", async () => {
    org = createTestOrg({ yaml: good });
    const { dir, name, socket } = org;
    const state = join(dir, "state");
    const orgFile = join(dir, "org.yaml");
    expect(runOrg(["up"], { cwd: dir, env }).code).toBe(0);
    // What must not change: every pane with its process and labels, org.json, and each agent's program.
    const panes = "#{pane_id} #{pane_pid} #{pane_dead} #{@org_agent} #{@org_gpu}";
    const snapshot = () => readOrgSnapshot({ dir, name, socket }, ["researcher-1", "researcher-2"], panes);
    const before = snapshot();
    expect(before.panes).toMatch(/ researcher-1 0\n.* researcher-2 1\n$/);
    const reload = () => runOrg(["reload"], { cwd: dir, env });
    const plan = () => runOrg(["plan"], { cwd: dir, env });
    const rejected = (problem: string) => [1, "", `${problem}\nnothing changed: the org runs as before\n`];

    // A syntax error, seen by the daemon: the control pane, reload.json, `org status` and log.md all say so.
    writeFileSync(orgFile, good(name).replace("gpu: true }", "gpu: true"));
    const syntax =
      "org.yaml:9:1: YAML syntax error: flow map in block collection must be sufficiently indented and end with a } " +
        "— fix the syntax here (indentation, quotes, brackets, a ': ' inside an unquoted value)";
    const seen = await pollUntil(() => {
      const record = existsSync(join(state, "reload.json"))
        ? readJsonFile<ReloadRecord>(join(state, "reload.json"))
        : undefined;
      return record?.outcome === "rejected" ? record : undefined;
    }, { what: "the daemon to reject the edit" });
    expect([seen.by, seen.problems]).toEqual(["daemon", [syntax]]);
    const control = before.panes.split(" ")[0]!;
    await pollUntil(
      () =>
        tmux(socket, ["capture-pane", "-p", "-J", "-t", control]).out.includes(
          `org.yaml edit rejected; the org runs as before:\n${syntax}`,
        ),
      { what: "the rejection in the control pane" },
    );
    const status = runOrg(["status"], { cwd: dir, env });
    expect(status.stdout).toContain(
      `\nwarning: the org.yaml edit seen at ${seen.at.slice(11, 19)} UTC (daemon) was rejected; ` +
        `the org runs as before:\n  ${syntax}\n`,
    );
    expect(Object.values(reload())).toEqual(rejected(syntax));
    expect(readFileSync(join(state, "log.md"), "utf8").split(`\n${syntax}\n`)).toHaveLength(2);

    const cases: [string, () => void, string][] = [
      [
        "a removed runtime still in use",
        () => writeFileSync(orgFile, good(name).replace("  printer: {", "  other: {")),
        `org.yaml:8:57: roles.researcher.runtime names "printer", which is neither defined under runtimes nor a ` +
          `preset — name a preset (claude, codex, gemini or opencode) or a defined runtime (other), ` +
          `or define it under runtimes, e.g. runtimes: {printer: {command: [printer, "{kickoff}"]}}`,
      ],
      [
        "a count that needs more GPUs than exist",
        () => writeFileSync(orgFile, good(name).replace("count: 2", "count: 3")),
        "org.yaml:8:73: 3 agents need a GPU each but only 2 GPUs are free (0, 1) — " +
          "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, " +
          "agents hold none), or set gpus: none for CPU mode",
      ],
      [
        "a prompt file deleted while in use",
        () => rmSync(join(dir, "prompts/researcher.md")),
        'org.yaml:8:25: roles.researcher.prompt file "prompts/researcher.md" does not exist — create it, ' +
          'or give its path relative to this file',
      ],
      [
        "a new org name",
        () => writeFileSync(orgFile, good(name).replace(`name: ${name}`, "name: renamed")),
        `org.yaml:1:7: name changed from "${name}" to "renamed" while the org runs; it names the tmux socket, ` +
          `the session and every branch — restart the org: org down && org up`,
      ],
    ];
    for (const [what, breakIt, problem] of cases) {
      breakIt();
      expect(Object.values(plan()), what).toEqual([1, "", `${problem}\n`]);
      const json = runOrg(["plan", "--json"], { cwd: dir, env });
      const parsed = JSON.parse(json.stdout) as {
        kind: string;
        problems: { file: string; line: number; col: number; message: string; fix: string }[];
      };
      expect([json.code, json.stderr, parsed.kind], what).toEqual([1, "", "rejected"]);
      expect(
        parsed.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.message} — ${p.fix}`),
        what,
      ).toEqual([problem]);
      expect(Object.values(reload()), what).toEqual(rejected(problem));
      expect(snapshot(), what).toEqual(before);
      writeFileSync(orgFile, good(name));
      writeFileSync(join(dir, "prompts/researcher.md"), PROMPT);
    }
    const log = readFileSync(join(state, "log.md"), "utf8");
    // Logged once, by whichever of the daemon and `org reload` saw it first.
    for (const [, , problem] of cases)
      expect(log.split(`: the edit is rejected; nothing changed\n${problem}\n`)).toHaveLength(2);

    expect(Object.values(reload())).toEqual([0, "nothing to do: the running org matches org.yaml\n", ""]);
    const inSync = runOrg(["plan", "--json"], { cwd: dir, env });
    expect([inSync.code, JSON.parse(inSync.stdout)]).toEqual([
      0,
      { kind: "in-sync", actions: [], warnings: [], problems: [] },
    ]);
    expect(runOrg(["status"], { cwd: dir, env }).stdout).not.toContain("warning");
    expect(snapshot()).toEqual(before);
  }, 120_000);
});
