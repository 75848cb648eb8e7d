import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  type HillclimbWorld, proposeChange, proposeUntried, runHillclimb, seededRng,
} from "../../../src/roles/index.js";
import { hillclimbWorld, orgWorld } from "../../../src/flows/builtin/hillclimb-world.js";
import type { Runner } from "../../../src/adapters/process.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const TRAIN = "const LEARNING_RATE = 0.01;\nconst HIDDEN = 16;\n";
const BEST = "const LEARNING_RATE = 0.02;\nconst HIDDEN = 16;\n";

// A submit that records what it was asked and which train.mjs it saw, and changes nothing.
function recordingRunner(cwd: string, calls: { description: string; train: string }[]): Runner {
  return {
    async run(argv) {
      calls.push({ description: argv.at(-1)!, train: readFileSync(join(cwd, "train.mjs"), "utf8") });
      git(cwd, ["checkout", "-q", "--", "train.mjs"]);
      return {
        argv,
        exitCode: 0,
        signal: null,
        stdout: "verdict: discard\n",
        stderr: "",
        timedOut: false,
        durationMs: 1,
      };
    },
  };
}

// The researcher's world with the org's, for `env`; each submit it makes is noted in `calls`.
function recordingWorld(repo: string, env: Record<string, string>) {
  const calls: { description: string; train: string }[] = [];
  return { calls, world: { ...hillclimbWorld(recordingRunner(repo, calls)), ...orgWorld(env) } };
}

// org/t/best one commit ahead of main with BEST, checked out.
function commitBest(repo: string): void {
  git(repo, ["checkout", "-q", "-b", "org/t/best"]);
  writeFileSync(join(repo, "train.mjs"), BEST);
  git(repo, ["commit", "-qam", "best"]);
}

// A frontier message in the inbox under `state`, as the daemon delivers one; returns the inbox.
function writeFrontierMessage(state: string): string {
  const inbox = join(state, "inbox");
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, "m1.md"), "## [now] the org's best advanced\nr-2 beat it.\n");
  return inbox;
}

// The org's tried ledger holding one discard: `agent` judged the step `description` on the code of `tree`.
function writeTried(state: string, tried: { commit: string; agent: string; description: string; tree: string }): void {
  const entry = {
    commit: tried.commit,
    agent: tried.agent,
    description: tried.description,
    status: "discard",
    metric: 1,
    reason: "discard",
    seconds: 2,
    time: new Date().toISOString(),
    change: { patchId: "p", tree: tried.tree },
  };
  writeFileSync(join(state, "tried.jsonl"), `${JSON.stringify(entry)}\n`);
}

// `iterations` steps of the researcher on seed 5, each log line into `lines`.
async function climb(repo: string, world: HillclimbWorld, lines: string[], iterations = 1): Promise<void> {
  const options = { cwd: repo, submitArgv: ["org", "submit"], rng: seededRng(5), iterations, pauseMs: 0 };
  await runHillclimb({ ...options, log: (line) => lines.push(line) }, world);
}

describe("proposeUntried", () => {
  test("passes over tried steps, and takes two at once when every single step was tried", () => {
    const source = "const LEARNING_RATE = 0.01;\n";
    const singles = new Set(["0.005", "0.008", "0.0125", "0.02"].map((value) => `LEARNING_RATE 0.01 -> ${value}`));
    const proposal = proposeUntried(source, seededRng(3), singles)!;
    expect(proposal.skipped).toBeGreaterThanOrEqual(32);
    expect(proposal.description).toMatch(/^LEARNING_RATE 0\.01 -> [0-9.]+; LEARNING_RATE [0-9.]+ -> [0-9.]+$/);
    expect(proposal.source).not.toBe(source);
    const fresh = proposeUntried(source, seededRng(3), new Set());
    expect(fresh).toEqual({ ...proposeChange(source, seededRng(3))!, skipped: 0 });
  });
});

describe("the built-in researcher follows the org", () => {
  const dirs: string[] = [];
  afterEach(() => { for (const dir of dirs.splice(0)) removeDir(dir); });
  // A repo checked out on its own branch, mine, with org/t/best at main; `head` is their commit.
  const createOwnBranchRepo = () => {
    const repo = createRepo({ "train.mjs": TRAIN });
    const state = makeTempDir();
    dirs.push(repo, state);
    git(repo, ["branch", "org/t/best"]);
    git(repo, ["checkout", "-q", "-b", "mine"]);
    return { repo, state, head: git(repo, ["rev-parse", "HEAD"]) };
  };

  test("a frontier message moves it onto the org best, " +
    "and a step the ledger holds on that code is skipped", async () => {
    const repo = createRepo({ "train.mjs": TRAIN });
    const state = makeTempDir();
    dirs.push(repo, state);
    commitBest(repo);
    const bestTree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
    git(repo, ["checkout", "-q", "-b", "org/t/r-1", "main"]);
    const inbox = writeFrontierMessage(state);
    // The step seed 5 draws first on the best's code, already judged there by another agent.
    const first = proposeChange(BEST, seededRng(5))!.description;
    writeTried(state, { commit: "a".repeat(40), agent: "r-2", description: first, tree: bestTree });
    const { calls, world } = recordingWorld(repo, { ORG_NAME: "t", ORG_INBOX: inbox, ORG_STATE: state });
    const lines: string[] = [];
    await climb(repo, world, lines, 2);
    expect(git(repo, ["rev-parse", "HEAD"])).toBe(git(repo, ["rev-parse", "org/t/best"]));
    expect(lines.filter((line) => line.includes("moved onto the org best"))).toHaveLength(1);
    expect(lines).toContain("hillclimb: skipped 1 change(s) already tried on this code (org tried)");
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.description)).not.toContain(first);
    expect(calls[0]!.train).not.toBe(BEST);
    expect(calls[0]!.train.split("\n").filter((line, index) => line !== BEST.split("\n")[index])).toHaveLength(1);
  });

  test("ORG_HILLCLIMB_FOLLOW=0 and ORG_HILLCLIMB_TRIED=0: the same frontier " +
    "message and ledger entry move nothing and skip nothing", async () => {
    const { repo, state, head } = createOwnBranchRepo();
    const inbox = writeFrontierMessage(state);
    const first = proposeChange(TRAIN, seededRng(5))!.description;
    const tree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
    writeTried(state, { commit: "a".repeat(40), agent: "r-2", description: first, tree });
    const lines: string[] = [];
    const env = {
      ORG_NAME: "t",
      ORG_INBOX: inbox,
      ORG_STATE: state,
      ORG_HILLCLIMB_FOLLOW: "0",
      ORG_HILLCLIMB_TRIED: "0",
    };
    const { calls, world } = recordingWorld(repo, env);
    await climb(repo, world, lines);
    expect(git(repo, ["rev-parse", "HEAD"])).toBe(head);
    expect(calls.map((call) => call.description)).toEqual([first]);
    expect(lines.filter((line) => line.includes("moved onto") || line.includes("skipped"))).toEqual([]);
  });

  test("with no frontier message it stays on its own branch", async () => {
    const { repo, state, head } = createOwnBranchRepo();
    const { calls, world } = recordingWorld(repo, { ORG_NAME: "t", ORG_INBOX: join(state, "inbox"), ORG_STATE: state });
    await runHillclimb(
      { cwd: repo, submitArgv: ["org", "submit"], rng: seededRng(1), log: () => {}, iterations: 1, pauseMs: 0 },
      world,
    );
    expect(git(repo, ["rev-parse", "HEAD"])).toBe(head);
    expect(calls).toHaveLength(1);
  });

  test("after following onto another agent's best, a change the " +
    "ledger answered against its own best is not submitted", async () => {
    const repo = createRepo({ "train.mjs": TRAIN });
    const state = makeTempDir();
    dirs.push(repo, state);
    const base = git(repo, ["rev-parse", "HEAD"]).trim();
    const baseTree = git(repo, ["rev-parse", "HEAD^{tree}"]).trim();
    commitBest(repo);
    git(repo, ["checkout", "-q", "-b", "org/t/r-1"]);
    // Its own best is still the base: the verifier diffs its changes on the org best against the base's tree.
    mkdirSync(join(state, "agents", "r-1"), { recursive: true });
    writeFileSync(
      join(state, "agents", "r-1", "ledger.json"),
      JSON.stringify({ best: { commit: base, metric: 1 }, lastVerified: base }),
    );
    writeFileSync(join(state, "org.json"), JSON.stringify({ baseCommit: base }));
    const first = proposeChange(BEST, seededRng(5))!.description;
    writeTried(state, { commit: "b".repeat(40), agent: "r-1", description: first, tree: baseTree });
    const { calls, world } = recordingWorld(repo, { ORG_NAME: "t", ORG_STATE: state, ORG_AGENT: "r-1" });
    const lines: string[] = [];
    await climb(repo, world, lines);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.description).not.toBe(first);
    expect(lines).toContain("hillclimb: skipped 1 change(s) already tried on this code (org tried)");
  });

  test("never the same change twice in a row, even before the ledger holds it", async () => {
    const repo = createRepo({ "train.mjs": TRAIN });
    dirs.push(repo);
    const calls: { description: string; train: string }[] = [];
    // Draws that would pick the same constant and step every time.
    const same = () => 0;
    await runHillclimb(
      { cwd: repo, submitArgv: ["org", "submit"], rng: same, log: () => {}, iterations: 2, pauseMs: 0 },
      { ...hillclimbWorld(recordingRunner(repo, calls)), listTried: async () => new Set<string>() },
    );
    expect(calls.map((call) => call.description)).toEqual([
      "LEARNING_RATE 0.01 -> 0.005",
      "LEARNING_RATE 0.01 -> 0.005; LEARNING_RATE 0.005 -> 0.0025",
    ]);
    expect(calls[1]!.train).toBe(TRAIN.replace("0.01", "0.0025"));
  });
});
