// The org of the verifier's end-to-end files (verifier-verdicts.e2e, verifier-commits.e2e): two researchers whose
// agent program idles, so the test is the agent, editing worktrees and running `org submit`; and what those files
// read back. One org a file: `upVerifierOrg` starts it in beforeAll; the bindings below are that file's.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { AgentLedger } from "../../src/domain/experiments/request.js";
import { runOrg, runOrgAsync, type CliResult } from "./org-cli.js";
import { git, makeTempDir, removeDir } from "./temp-repo.js";
import {
  createTestOrg, upUntilBaselines, idleOrgYaml, readJsonFile, teardownOrg, type TestOrg,
} from "./test-org/index.js";

// One verify slot and a 2 s timeout, so two submits queue behind each other and a hang is killed quickly.
// A function: `scratch` is made in beforeAll.
const orgYaml = (name: string) => idleOrgYaml(", count: 2, edits: [train.sh, value.txt]", `verify:
  command: [sh, train.sh]
  protected: [prepare.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  memory: { pattern: '^peak_vram_mb:\\s*([0-9.]+)' }
  timeout: 2s
  parallel: 1
  repeats: 1                    # the loop's mechanics, not the noise rule (experiment.test.ts covers that)
  keep: { k: 2, min_delta: 0, confirm: 0 }
# The verify runs are sandboxed: the tests' traces go to a folder declared writable.
sandbox: { write: ["${scratch}"] }
`)(name);

// The toy research repo: the metric is whatever value.txt says, so a test sets it by editing one file.
export const TRAIN = '#!/bin/sh\necho "val_bpb: $(cat value.txt)"\necho "peak_vram_mb: 1536"\n';
export const PREPARE = "#!/bin/sh\n# data preparation: fixed; the verifier restores it from base before every run\n";
export const PATTERN = "^val_bpb:\\s*([0-9.]+)";

// Live bindings, set by upVerifierOrg's beforeAll: ES modules let the importing file read them as they are then.
export let org: TestOrg;
export let scratch: string;
export let state: string;
/** The commit every agent branched from, whose baselines `upVerifierOrg` waited for. */
export let base = "";
export const worktree = (agent: string) => join(org.dir, "worktrees", agent);
export const branchHead = (agent: string) => git(org.dir, ["rev-parse", `org/${org.name}/${agent}`]).trim();
export const ledger = (agent: string) => readJsonFile<AgentLedger>(join(state, "agents", agent, "ledger.json"));
// A saved patch as the verifier writes it: the tried key's diff, full hashes and no renames.
export const PATCH = ["diff", "--binary", "--full-index", "--no-renames", "--no-color", "--no-ext-diff"];
export const patchFile = (agent: string, short: string, kind: string) =>
  join(state, "patches", `${agent}-${short}-${kind}.patch`);

/** The file's org, up until both baselines are judged; stopped and removed after the file. */
export function upVerifierOrg(): void {
  beforeAll(async () => {
    scratch = makeTempDir("org-verifier-scratch-");
    org = createTestOrg({ yaml: orgYaml, files: { "train.sh": TRAIN, "prepare.sh": PREPARE, "value.txt": "1.000\n" } });
    state = join(org.dir, "state");
    base = git(org.dir, ["rev-parse", "main"]).trim();
    await upUntilBaselines(org, ["researcher-1", "researcher-2"], 20_000);
  }, 60_000);

  afterAll(() => {
    teardownOrg(org);
    removeDir(scratch);
  });
}

/** The baselines' rows of results.tsv as readRows gives them: both agents kept the base. */
export function baselineRows(): string[][] {
  const short = base.slice(0, 7);
  return ["researcher-1", "researcher-2"].map((agent) => [short, "1.000000", "1.5", "keep", "baseline", agent, "cpu"]);
}

/** One `org submit -m` from the agent's worktree, as the agent would run it (no ORG_ROOT: found from cwd). */
export function submit(agent: string, message: string): { short: string; lines: string[] } {
  return parseSubmit(runOrg(["submit", "-m", message], { cwd: worktree(agent) }));
}

export async function submitAsync(agent: string, message: string): Promise<{ short: string; lines: string[] }> {
  return parseSubmit(await runOrgAsync(["submit", "-m", message], { cwd: worktree(agent), timeoutMs: 30_000 }));
}

function parseSubmit(result: CliResult): { short: string; lines: string[] } {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const lines = result.stdout.replace(/\n$/, "").split("\n");
  return { short: /^submitted ([0-9a-f]{7}) /.exec(lines[0]!)?.[1] ?? "", lines };
}

/** results.tsv without the seconds and time columns, which are checked for shape only. */
export function readRows(): string[][] {
  const lines = readFileSync(join(state, "results.tsv"), "utf8").split("\n");
  expect(lines.pop()).toBe("");
  expect(lines.shift()).toBe(
    "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tlines_added\tlines_removed",
  );
  return lines.map((line) => {
    const fields = line.split("\t");
    expect(fields).toHaveLength(12);
    expect(fields[7]).toMatch(/^\d+\.\d$/);
    expect(fields[8]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // `org up` recorded the program every row ran under.
    expect(fields[9]).toMatch(/^[0-9a-f]{8}$/);
    return fields.slice(0, 7);
  });
}

/** The newest inbox message, its time replaced by T. */
export function lastInbox(agent: string): string {
  const text = inboxText(agent);
  return text.slice(text.lastIndexOf("\n## [") + 1).replace(/^## \[[^\]]+\]/, "## [T]").replace(/\n+$/, "\n");
}

/** The verdict messages in an agent's inbox folder, oldest first: each one from the verifier, of kind verdict. */
export function inboxText(agent: string): string {
  const dir = join(state, "agents", agent, "inbox");
  return readdirSync(dir).filter((name) => name.endsWith(".md")).sort().map((name) => {
    const text = readFileSync(join(dir, name), "utf8");
    expect(text).toMatch(
      new RegExp(
        `^---\\nid: ${name.slice(0, -3)}\\nfrom: verifier\\nto: ${agent}\\ntime: \\S+\\nkind: ` +
          `verdict\\n---\\n\\n## \\[`,
      ),
    );
    return text.slice(text.indexOf("\n---\n\n") + 6);
  }).join("");
}

export function runLog(agent: string, short: string): string {
  const logs = readdirSync(join(state, "runs")).filter((file) => file.endsWith(`-${agent}-${short}.log`));
  expect(logs).toHaveLength(1);
  return join(state, "runs", logs[0]!);
}

/** The branch and its worktree point at `commit`, with nothing left over in the worktree. */
export function expectResetTo(agent: string, commit: string): void {
  expect(branchHead(agent)).toBe(commit);
  expect(git(worktree(agent), ["rev-parse", "HEAD"]).trim()).toBe(commit);
  expect(git(worktree(agent), ["status", "--porcelain"])).toBe("");
}
