import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AgentLedger } from "../../../src/domain/experiments/request.js";
import { isRunning } from "../../helpers/processes.js";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import {
  createTestOrg, idleOrgYaml, readJsonFile, teardownOrg, type TestOrg, tmux, upUntilBaselines,
} from "../../helpers/test-org/index.js";

// The base's verify script prints no metric and fails: every run of the base is a crash until an agent fixes it.
const orgYaml = idleOrgYaml("", `verify:
  command: [./verify.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
  keep: { k: 2, min_delta: 0, confirm: 0 }
`);

const VERIFY = '#!/bin/sh\necho "val_bpb: 0.5"\n';
const BROKEN = '#!/bin/sh\necho "no data yet"\nexit 3\n';

let org: TestOrg;
let state: string;
let worktree: string;
let base: string;
const short = (commit: string) => commit.slice(0, 7);

describe("org submit", () => {
  beforeAll(async () => {
    org = createTestOrg({ yaml: orgYaml, files: { "verify.sh": BROKEN } });
    chmodSync(join(org.dir, "verify.sh"), 0o755);
    git(org.dir, ["add", "--chmod=+x", "verify.sh"]);
    git(org.dir, ["commit", "-qm", "verify.sh executable"]);
    state = join(org.dir, "state");
    worktree = join(org.dir, "worktrees", "researcher-1");
    base = git(org.dir, ["rev-parse", "main"]).trim();
    await upUntilBaselines(org, ["researcher-1"], 20_000);
    // The verifier clears a request just after its ledger: the snapshots below must not see it go.
    const cleared = () => readdirSync(join(state, "queue")).length === 0;
    await pollUntil(cleared, { what: "the baseline's request cleared", timeoutMs: 20_000 });
  }, 60_000);

  afterAll(() => teardownOrg(org));

  test("a verify command that fails on the base makes the baseline a crash that says so", () => {
    const reason = "crash: no line matched /^val_bpb:\\s*([0-9.]+)/; exit code 3";
    expect(readRows()).toEqual([[short(base), "0.000000", "0.0", "crash", "baseline", "researcher-1", "cpu"]]);
    expect(readJsonFile<AgentLedger>(join(state, "agents/researcher-1/ledger.json"))).toMatchObject({
      best: null,
      lastVerified: base,
      baselineCrash: reason,
    });
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        `^## \\[\\d{4}-\\d\\d-\\d\\d\\] crash \\| researcher-1 ${short(base)} baseline\\n${escape(reason)}\\n`,
        "m",
      ),
    );
    const inbox = join(state, "agents/researcher-1/inbox");
    const messages = readdirSync(inbox).filter((name) => name.endsWith(".md"));
    expect(messages).toHaveLength(1);
    expect(readFileSync(join(inbox, messages[0]!), "utf8")).toMatch(
      new RegExp(
        `^---\\nid: \\S+\\nfrom: verifier\\nto: researcher-1\\ntime: \\S+\\nkind: ` +
          `verdict\\n---\\n\\n## \\[[^\\]]+\\] verdict crash for ${short(base)}\\n${escape(reason)}\\n$`,
      ),
    );
    const logs = readdirSync(join(state, "runs"));
    expect(logs).toHaveLength(1);
    expect(readFileSync(join(state, "runs", logs[0]!), "utf8")).toBe("no data yet\n");
  });

  test("refusals exit 1 with the reason and change nothing", () => {
    const before = snapshot();
    const outside = runOrg(["submit", "-m", "try"], { cwd: join(org.dir, "prompts") });
    expect(outside).toEqual({
      code: 1,
      stdout: "",
      stderr: `org: not inside an agent's worktree (${org.dir}/prompts) — ` +
        `run it from one of ${org.dir}/worktrees/<agent>\n`,
    });

    const nothing = runOrg(["submit", "-m", "try"], { cwd: worktree });
    expect(nothing).toEqual({
      code: 1,
      stdout: "",
      stderr: `org: nothing to submit: no changes since ${short(base)}, your last verified commit\n`,
    });
    expect(snapshot()).toEqual(before);

    writeFileSync(join(worktree, "notes.md"), "an idea\n");
    const silent = runOrg(["submit"], { cwd: worktree });
    expect(silent).toEqual({
      code: 1,
      stdout: "",
      stderr: 'org: say what you tried: org submit -m "raised the learning rate to 0.04" (nothing was committed)\n',
    });
    expect(snapshot()).toEqual({ ...before, status: "?? notes.md\n" });
    git(worktree, ["clean", "-fq"]);
  });

  test("on a base whose baseline crashed, experiments are refused with the reason and nothing is committed", () => {
    writeFileSync(join(worktree, "verify.sh"), VERIFY);
    const before = snapshot();
    const refused = runOrg(["submit", "-m", "add the verify script"], { cwd: worktree, env: { ORG_ROOT: org.dir } });
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "org: your baseline crashed, so the base is broken: crash: no line matched /^val_bpb:\\s*([0-9.]+)/; " +
          "exit code 3 — fix it, then `org down && org up` (nothing was committed)\n",
    });
    expect(snapshot()).toEqual(before);
    expect(before.status).toBe(" M verify.sh\n");
  });

  test("while the org is down submit refuses and commits nothing", () => {
    const daemon = readJsonFile<{ pid: number }>(join(state, "daemon.json")).pid;
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    expect(tmux(org.socket, ["has-session"]).code).not.toBe(0);
    expect(isRunning(daemon)).toBe(false);

    writeFileSync(join(worktree, "verify.sh"), '#!/bin/sh\necho "val_bpb: 0.4"\n');
    const before = snapshot();
    const down = runOrg(["submit", "-m", "lower it"], { cwd: worktree });
    expect(down).toEqual({
      code: 1,
      stdout: "",
      stderr: "org: the org is not running — start it with `org up` (nothing was committed)\n",
    });
    expect(snapshot()).toEqual(before);
    expect(before.status).toBe(" M verify.sh\n");
  });
});

/** Everything a refused submit must leave alone. */
function snapshot(): { head: string; branch: string; status: string; results: string; queue: string[] } {
  return {
    head: git(worktree, ["rev-parse", "HEAD"]).trim(),
    branch: git(org.dir, ["rev-parse", `org/${org.name}/researcher-1`]).trim(),
    status: git(worktree, ["status", "--porcelain"]),
    results: readFileSync(join(state, "results.tsv"), "utf8"),
    queue: readdirSync(join(state, "queue")),
  };
}

/** results.tsv rows without the seconds and time columns. */
function readRows(): string[][] {
  const lines = readFileSync(join(state, "results.tsv"), "utf8").trimEnd().split("\n");
  expect(lines.shift()).toBe(
    "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tlines_added\tlines_removed",
  );
  return lines.map((line) => line.split("\t").slice(0, 7));
}


function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
