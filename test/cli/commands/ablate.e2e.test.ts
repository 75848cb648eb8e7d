// `org ablate` over a real org: one researcher's change carries the gain, the other's was kept on a lucky seed; the
// ablation, cut by `org down` and resumed, measures the best again beside each variant and flags the lucky one.
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg, runOrgAsync } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git } from "../../helpers/temp-repo.js";
import {
  createTestOrg, idleOrgYaml, teardownOrg, type TestOrg, upUntilBaselines,
} from "../../helpers/test-org/index.js";

const orgYaml = idleOrgYaml(", count: 2, edits: [a.txt, b.txt]", `verify:
  command: [sh, score.sh]
  metric: { name: score, pattern: '^score: ([0-9.]+)', goal: maximize }
  timeout: 10s
  parallel: 2
  repeats: 4
  keep: { k: 2, min_delta: 0, confirm: 0 }
`);
// a counts ten to one; b counts nothing. The noise is 0 or 0.2 by seed, and researcher-2's fifth run (seed 4) is lucky.
// Half a second a run: the ablation's 12 runs then outlast the moment `org down` takes (measured all before it once).
// Every run: with the sleep in runs not named researcher-* alone, the ablation measured all before it at load 15.
const SCORE = `sleep 0.5
awk -v a="$(cat a.txt)" -v s="$ORG_SEED" -v who="$ORG_AGENT" 'BEGIN {
  n = (s % 2) * 0.2; if (who == "researcher-2" && s == 4) n = 1; printf "score: %.4f\\n", 10 * a + n }'
`;

interface Row {
  reverted: { commit: string; agent: string }[]; state: string; effect?: string; note: string; runs?: number;
  variant?: string;
}

let org: TestOrg;
let state: string;
const worktree = (agent: string) => join(org.dir, "worktrees", agent);
const head = (agent: string) => git(worktree(agent), ["rev-parse", "HEAD"]).trim();
const results = () => (existsSync(join(state, "results.tsv")) ? readFileSync(join(state, "results.tsv"), "utf8") : "");
const ablateRows = () => results().split("\n").filter((line) => /\tablate [0-9a-f]{7} /.test(line));

describe("org ablate", () => {
  beforeAll(async () => {
    org = createTestOrg({ yaml: orgYaml, files: { "score.sh": SCORE, "a.txt": "1\n", "b.txt": "1\n" } });
    state = join(org.dir, "state");
    await upUntilBaselines(org, ["researcher-1", "researcher-2"]);
  }, 60_000);

  afterAll(() => teardownOrg(org));

  test("names the change that carries the gain, flags the lucky one, and never measures a variant twice", async () => {
    writeFileSync(join(worktree("researcher-1"), "a.txt"), "5\n");
    const submitted = runOrg(["submit", "-m", "a to 5"], { cwd: worktree("researcher-1") });
    expect(submitted.stdout).toMatch(/· keep\n/);
    const a1 = head("researcher-1");
    // researcher-2 follows: merges researcher-1's keep and changes b, which the score ignores; its seed 4 is lucky.
    git(worktree("researcher-2"), ["merge", "-q", "--no-ff", "--no-commit", `org/${org.name}/researcher-1`]);
    writeFileSync(join(worktree("researcher-2"), "b.txt"), "2\n");
    git(worktree("researcher-2"), ["commit", "-qam", "follow researcher-1, b to 2"]);
    const m = head("researcher-2");
    const lucky = () => results().includes(`${m.slice(0, 7)}\t51.000000`);
    await pollUntil(lucky, { what: "the lucky keep", timeoutMs: 30_000 });

    // Interrupted: the org goes down while the variants wait or run; the next `org up` runs them from the queue.
    const interrupted = runOrgAsync(["ablate"], { cwd: org.dir, timeoutMs: 60_000 });
    const queue = join(state, "queue");
    const queued = () => existsSync(queue) && readdirSync(queue).some((name) => name.includes("-ablate-"));
    await pollUntil(queued, { what: "the ablation's variants queued", timeoutMs: 30_000 });
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    const cut = await interrupted;
    expect(cut.stderr).toContain("the org went down before every variant was measured");
    expect(cut.code).not.toBe(0);
    expect(runOrg(["up"], { cwd: org.dir }).code).toBe(0);

    const ablate = await runOrgAsync(["ablate", "--json"], { cwd: org.dir, timeoutMs: 60_000 });
    expect(ablate.code, ablate.stderr).toBe(0);
    const report = JSON.parse(ablate.stdout) as { commit: string; best: { metric: number }; variants: Row[] };
    expect(report.commit).toBe(m);
    const shown = report.variants
      .map((row) => [row.reverted.map((one) => [one.commit, one.agent]), row.effect ?? "", row.runs]);
    expect(shown).toEqual([
      [[], "", 4], [[[a1, "researcher-1"]], "carries", 4], [[[m, "researcher-2"]], "noise", 4],
    ]);
    expect(report.variants[2]!.note).toBe("no measurable effect here: dropping it simplifies the best");
    // Each variant is org's experiment, its row in results.tsv: three of them, four runs each.
    const columns = ablateRows().map((line) => line.split("\t").slice(3, 6).join(" ")).sort();
    expect(columns).toEqual([
      `discard ablate ${m.slice(0, 7)} itself (mean of 4 runs) org`,
      `discard ablate ${m.slice(0, 7)} without ${a1.slice(0, 7)} (mean of 4 runs) org`,
      `discard ablate ${m.slice(0, 7)} without ${m.slice(0, 7)} (mean of 4 runs) org`,
    ].sort());

    // Asked again (and after the org is down): the same table from disk, nothing queued or run again.
    const again = runOrg(["ablate"], { cwd: org.dir, env: { COLUMNS: "200" } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("no measurable effect here: dropping it simplifies the best");
    expect(ablateRows()).toHaveLength(3);
    // A daemon killed after a variant's row, before its measure file: asked again, the row answers it, nothing runs.
    const measure = join(state, "ablation", "variants", `${report.variants[1]!.variant}.json`);
    unlinkSync(measure);
    const resumed = await runOrgAsync(["ablate", "--json"], { cwd: org.dir, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming the ablation of ${m.slice(0, 7)}`);
    expect((JSON.parse(resumed.stdout) as { variants: Row[] }).variants[1]!.effect).toBe("carries");
    expect(JSON.parse(readFileSync(measure, "utf8"))).toMatchObject({ source: "row", n: 4 });
    expect(ablateRows()).toHaveLength(3);
    // The report draws the waterfall (baseline, each change, the best) above the same table.
    expect(runOrg(["report"], { cwd: org.dir }).code).toBe(0);
    const html = readFileSync(join(state, "report.html"), "utf8");
    expect(html).toContain("<h2>Ablation</h2>\n<svg");
    const pre = `<pre id="ablation">ablation of ${m.slice(0, 7)}: score 51.0000 when kept (1 run), `
      + "50.1000 measured again";
    expect(html.split("\n").find((line) => line.startsWith("<pre id=\"ablation\">"))).toMatch(pre);

    // Bad input: the base, a commit that is not kept, an unknown name, and no org running.
    const base = git(org.dir, ["rev-parse", "main"]).trim();
    const refuse = (args: string[]) => runOrg(["ablate", ...args], { cwd: org.dir });
    const fix = "name a kept commit from `org lineage`, or none for the org best; nothing was queued";
    const isBase = `${base.slice(0, 7)} is the base: it has no kept changes to take out`;
    expect(refuse([base.slice(0, 7)]).stderr).toBe(`org: ${isBase} — ${fix}\n`);
    const unkept = git(org.dir, ["commit-tree", `${m}^{tree}`, "-p", m, "-m", "never submitted"]).trim();
    expect(refuse([unkept]).stderr).toBe(`org: ${unkept.slice(0, 7)} is not a kept commit — ${fix}\n`);
    expect(refuse(["deadbee"]).stderr).toBe(`org: "deadbee" is not a commit in ${org.dir} — ${fix}\n`);
    expect(runOrg(["down"], { cwd: org.dir }).code).toBe(0);
    const records = readdirSync(join(state, "ablation"));
    const down = refuse([a1.slice(0, 7)]);
    const start = "start it with `org up` (or `org up --resume`), then run `org ablate` again; nothing was queued";
    expect(down.stderr).toBe(`org: the org is not running — ${start}\n`);
    expect(down.code).toBe(1);
    expect(readdirSync(join(state, "ablation"))).toEqual(records);
    expect(runOrg(["ablate", m.slice(0, 7)], { cwd: org.dir }).code).toBe(0);
  }, 120_000);
});
