import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { readScriptLog, scriptSection } from "../helpers/script-log.js";
import { git } from "../helpers/temp-repo.js";
import { bin, createTestOrg, swapRuntime, teardownOrg, templatePath, type TestOrg } from "../helpers/test-org/index.js";

// Scripted researchers (test/fixtures/bin/autoresearch-researcher): researcher-1 lowers the metric, researcher-2 raises
// it.
const RESEARCHERS = ["researcher-1", "researcher-2"];
const GPUS = [
  "0, GPU-00000000-aaaa, NVIDIA H100 80GB HBM3, 1, 81559",
  "1, GPU-00000001-aaaa, NVIDIA H100 80GB HBM3, 3, 81559",
].join("\n");
const env = { PATH: templatePath(), FAKE_NVIDIA_SMI_CSV: GPUS };

let org: TestOrg;
let state: string;
let base: string;
const script = (agent: string) => readScriptLog(state, agent);
const branch = (agent: string) => `org/autoresearch/${agent}`;

describe("the autoresearch template", () => {
  beforeAll(async () => {
    // The template's verify section as written: python train.py, three baseline seeds, two confirm runs for a gain.
    org = createTestOrg({ template: "autoresearch", edits: swapRuntime(bin("autoresearch-researcher")), env });
    state = join(org.dir, "state");
    base = git(org.dir, ["rev-parse", "main"]).trim();
    const up = runOrg(["up"], { cwd: org.dir, env });
    expect(up.code, up.stderr).toBe(0);
    await pollUntil(() => RESEARCHERS.every((agent) => script(agent).includes("== done\n")), {
      what: "every researcher's submit",
      timeoutMs: 60_000,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\n${RESEARCHERS.map((agent) => `${agent}:\n${script(agent)}`).join("\n")}`);
    });
  }, 90_000);

  afterAll(() => teardownOrg(org));

  test("org init counts the GPUs: one researcher per GPU, " +
    "each on its own branch with its own CUDA_VISIBLE_DEVICES", () => {
    expect(readFileSync(join(org.dir, "org.yaml"), "utf8")).toContain(
      "    count: 2          # one per GPU: nvidia-smi showed 2 at `org init`\n",
    );
    expect(scriptSection(script("researcher-1"), "where")).toBe(`${branch("researcher-1")}\ngpu 0\n`);
    expect(scriptSection(script("researcher-2"), "where")).toBe(`${branch("researcher-2")}\ngpu 1\n`);
    expect(readFileSync(join(state, "agents/researcher-2/prompt.md"), "utf8")).toMatch(
      new RegExp(
        /^<!-- rendered by org for researcher-2; [^\n]* -->\n/.source +
        /# You are researcher-2, a researcher in the org "autoresearch"\n\n/.source +
        /You work alone in your own git worktree \(\S+\/worktrees\/researcher-2\) /.source +
        /on branch `org\/autoresearch\/researcher-2`, with GPU 1\./.source,
      ),
    );
  });

  test("a better commit is kept and a worse one discarded: " +
    "both get a row in results.tsv and the loser's branch is reset", () => {
    const kept = git(org.dir, ["rev-parse", branch("researcher-1")]).trim();
    expect(git(org.dir, ["log", "--format=%s", `main..${branch("researcher-1")}`])).toBe("lower the loss\n");
    expect(scriptSection(script("researcher-1"), "submit")).toBe(
      `submitted ${kept.slice(0, 7)} "lower the loss"; waiting for the verifier…\n` +
        `metric 0.900000 · your best 0.900000 (${kept.slice(0, 7)}) · delta -0.100000 · keep\n` +
        "keep: val_bpb 0.9000 (mean of 3) beats best 1.0000 by 0.1000 > min_delta 0.0000 (σ is 0: " +
        "a deterministic task)\nexit 0\n",
    );
    const submitted = /^submitted ([0-9a-f]{7}) "raise the loss"/.exec(
      scriptSection(script("researcher-2"), "submit"),
    )?.[1];
    expect(scriptSection(script("researcher-2"), "submit")).toBe(
      `submitted ${submitted} "raise the loss"; waiting for the verifier…\n` +
        `metric 1.200000 · your best 1.000000 (${base.slice(0, 7)}) · delta +0.200000 · discard\n` +
        "discard: val_bpb 1.2000 not better than best 1.0000 (+0.2000)\n" +
        `your branch was reset to ${base.slice(0, 7)}; the diff is saved in ` +
        `${state}/patches/researcher-2-${submitted}-discard.patch\nexit 0\n`,
    );
    expect(git(org.dir, ["rev-parse", branch("researcher-2")]).trim()).toBe(base);
    expect(existsSync(join(state, `patches/researcher-2-${submitted}-discard.patch`))).toBe(true);
    const lines = readFileSync(join(state, "results.tsv"), "utf8").trimEnd().split("\n");
    expect(lines.shift()).toBe(
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tlines_added\tlines_removed",
    );
    // The two agents' verdicts land in either order: compare the rows as a set, each run on its agent's GPU.
    expect(lines.map((line) => line.split("\t").slice(0, 7).join(" ")).sort()).toEqual([
      `${base.slice(0, 7)} 1.000000 0.0 keep baseline (mean of 3 seeds) researcher-1 0`,
      `${base.slice(0, 7)} 1.000000 0.0 keep baseline (mean of 3 seeds) researcher-2 1`,
      `${kept.slice(0, 7)} 0.900000 0.0 keep lower the loss (mean of 3 runs) researcher-1 0`,
      `${submitted} 1.200000 0.0 discard raise the loss researcher-2 1`,
    ].sort());
    // The first baseline to land sets the frontier: either researcher's.
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        `\\] frontier \\| researcher-1 ${kept.slice(0, 7)}\\nval_bpb 0\\.9 by researcher-1 beats the org's best 1 ` +
          `\\(researcher-[12]\\)\\n`,
      ),
    );
  });
});
