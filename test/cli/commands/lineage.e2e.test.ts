// `org lineage` over a real org: the test is the agents (edits, merges, `org submit`); the verifier keeps and stacks.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import {
  createTestOrg, idleOrgYaml, teardownOrg, type TestOrg, upUntilBaselines,
} from "../../helpers/test-org/index.js";

// score = a + b, maximized: each researcher's own change adds up with the other's, so a stack and a follow both keep.
const orgYaml = idleOrgYaml(", count: 2, edits: [a.txt, b.txt]", `verify:
  command: [sh, score.sh]
  metric: { name: score, pattern: '^score: ([0-9.]+)', goal: maximize }
  timeout: 10s
  parallel: 1
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`);
const SCORE = 'echo "score: $(( $(cat a.txt) + $(cat b.txt) ))"\n';

interface Keep {
  commit: string; agent: string; author: string; cross: boolean; carries?: { commit: string };
  builtOn: { commit: string; author: string; relation: string }[];
}
interface Share { keeps: number; cross: number; descends: number; unknown: number; fraction: number }

let org: TestOrg;
let state: string;
const worktree = (agent: string) => join(org.dir, "worktrees", agent);
const head = (agent: string) => git(worktree(agent), ["rev-parse", "HEAD"]).trim();
const results = () => (existsSync(join(state, "results.tsv")) ? readFileSync(join(state, "results.tsv"), "utf8") : "");
const submit = (agent: string, file: string, value: string) => {
  writeFileSync(join(worktree(agent), file), `${value}\n`);
  const result = runOrg(["submit", "-m", `${file} to ${value}`], { cwd: worktree(agent) });
  expect(result.stderr).toBe("");
  expect(result.stdout).toMatch(/· keep\n/);
  return head(agent);
};
const lineage = () => {
  const result = runOrg(["lineage", "--json"], { cwd: org.dir });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as { base: string; share: Share; keeps: Keep[] };
};

describe("org lineage", () => {
  beforeAll(async () => {
    org = createTestOrg({ yaml: orgYaml, files: { "score.sh": SCORE, "a.txt": "1\n", "b.txt": "1\n" } });
    state = join(org.dir, "state");
    await upUntilBaselines(org, ["researcher-1", "researcher-2"], 20_000);
  }, 60_000);

  afterAll(() => teardownOrg(org));

  test("own keeps, a stack onto another's best, a follow by merge; a deleted branch changes nothing", async () => {
    const a1 = submit("researcher-1", "a.txt", "5");
    const b1 = submit("researcher-2", "b.txt", "3");
    // b1 beats researcher-2's best but not the org's: the verifier stacks it onto a1 as the org's own experiment.
    await pollUntil(() => /\tkeep\tstack /.test(results()), { what: "the stack's keep", timeoutMs: 30_000 });
    // researcher-2 follows researcher-1: merges its keep, then changes b again in the same commit.
    git(worktree("researcher-2"), ["merge", "-q", "--no-ff", "--no-commit", `org/${org.name}/researcher-1`]);
    writeFileSync(join(worktree("researcher-2"), "b.txt"), "4\n");
    git(worktree("researcher-2"), ["commit", "-qam", "follow researcher-1, b to 4"]);
    const m = head("researcher-2");
    const follow = () => results().includes(`${m.slice(0, 7)}\t9.000000`);
    await pollUntil(follow, { what: "the follow's keep", timeoutMs: 30_000 });

    const before = lineage();
    const base = git(org.dir, ["rev-parse", "main"]).trim();
    const stack = before.keeps.find((keep) => keep.agent === "org")!;
    expect(before.base).toBe(base);
    const links = (keep: Keep) => keep.builtOn.map((link) => [link.commit, link.relation]);
    expect(before.keeps.map((keep) => [keep.commit, keep.agent, links(keep), keep.cross])).toEqual([
      [a1, "researcher-1", [[base, "base"]], false],
      [b1, "researcher-2", [[base, "base"]], false],
      [stack.commit, "org", [[a1, "stack"]], true],
      [m, "researcher-2", [[b1, "own"], [a1, "follow"]], true],
    ]);
    expect(stack).toMatchObject({ author: "researcher-2", carries: { commit: b1 } });
    expect(before.share).toEqual({ keeps: 4, cross: 2, descends: 2, unknown: 0, fraction: 0.5 });
    const text = runOrg(["lineage"], { cwd: org.dir, env: { COLUMNS: "200" } }).stdout;
    const marks = `[follows researcher-1 (${a1.slice(0, 7)})]`;
    const line = `${m.slice(0, 7)} researcher-2 score 9.000000 ${marks} follow researcher-1, b to 4`;
    expect(text).toContain(`\n   ${line}\n`);
    expect(text).toContain("2 of 4 keeps (50 %) built on another agent's result, 2 (50 %) descend from one");

    // Lineage is the verifier's record: researcher-1's branch gone (and the org down) leaves it as it was.
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    git(org.dir, ["worktree", "remove", "--force", worktree("researcher-1")]);
    git(org.dir, ["branch", "-D", `org/${org.name}/researcher-1`]);
    expect(lineage()).toEqual(before);
    // The report carries the same tree.
    expect(runOrg(["report"], { cwd: org.dir }).code).toBe(0);
    const html = readFileSync(join(state, "report.html"), "utf8");
    expect(html).toContain(`<h2>Lineage</h2>\n<pre id="lineage">base ${base.slice(0, 7)}\n`);
  }, 120_000);

  test("no org, and an org with no keeps yet: the exact message, nothing written", () => {
    const empty = makeTempDir("org-lineage-empty-");
    try {
      const none = runOrg(["lineage"], { cwd: empty });
      expect(none.stderr).toBe(`org: no org state in ${join(empty, "state")} — run \`org up\` first\n`);
      expect(none.code).toBe(1);
      mkdirSync(join(empty, "state"));
      const header = "commit\tscore\tmemory_gb\tstatus\tdescription\tagent\n";
      writeFileSync(join(empty, "state", "results.tsv"), `${header}1234567\t2.000000\t0.0\tkeep\tbaseline\tr-1\n`);
      const noKeeps = runOrg(["lineage"], { cwd: empty });
      const why = "the lineage starts at the first kept experiment; `org results` shows what was judged so far";
      expect(noKeeps.stderr).toBe(`org: no keeps yet in ${join(empty, "state", "results.tsv")} — ${why}\n`);
      expect(noKeeps.code).toBe(1);
      expect(readdirSync(join(empty, "state"))).toEqual(["results.tsv"]);
    } finally {
      removeDir(empty);
    }
  });
});
