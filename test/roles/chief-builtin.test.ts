// The built-in chief: its scoring and assignment, its loop over
// a fake world, and the built-in junior following its task.
import { describe, expect, test } from "vitest";
import {
  assignFocus, formatFocusTask, parseFocus, proposeUntried, runChief, runHillclimb, scoreConstants, seededRng, type
  ChiefWorld, type JudgedChange,
} from "../../src/roles/index.js";

const TRAIN = "const LEARNING_RATE = 0.01;\nconst HIDDEN = 16;\nconst STEPS = 3000;\n";
const CONSTANTS = ["LEARNING_RATE", "HIDDEN", "STEPS"];
const change = (description: string, status: JudgedChange["status"], duplicate = false): JudgedChange => ({
  description,
  status,
  duplicate,
});

describe("scoreConstants", () => {
  test("counts tries and keeps per constant; a ledger answer is a try " +
    "and never a keep; rejects and unknown names are no evidence", () => {
    const scores = scoreConstants(CONSTANTS, [
      change("LEARNING_RATE 0.01 -> 0.02", "keep"),
      change("LEARNING_RATE 0.02 -> 0.04", "discard"),
      change("HIDDEN 16 -> 20; STEPS 3000 -> 3750", "crash"),
      change("HIDDEN 16 -> 13", "reject"),
      change("LEARNING_RATE 0.02 -> 0.04", "discard", true),
      change("STEPS 3000 -> 3750", "keep", true),
      change("tried a new optimizer", "keep"),
      change("DROPOUT 0.1 -> 0.2", "keep"),
    ]);
    expect(scores.map(({ name, tried, kept }) => [name, tried, kept])).toEqual([
      ["LEARNING_RATE", 3, 1],
      ["HIDDEN", 1, 0],
      ["STEPS", 2, 0],
    ]);
  });
  test("a constant nobody tried outranks one that only failed, " +
    "and a fruitful one outranks both once tried enough", () => {
    const failed = Array.from({ length: 6 }, () => change("HIDDEN 16 -> 20", "discard"));
    const kept = Array.from({ length: 6 }, (_, index) =>
      change("LEARNING_RATE 0.01 -> 0.02", index % 2 === 0 ? "keep" : "discard"),
    );
    const scores = new Map(scoreConstants(CONSTANTS, [...failed, ...kept]).map((score) => [score.name, score.score]));
    expect(scores.get("STEPS")!).toBeGreaterThan(scores.get("HIDDEN")!);
    expect(scores.get("LEARNING_RATE")!).toBeGreaterThan(scores.get("HIDDEN")!);
  });
});

describe("assignFocus", () => {
  const score = (name: string, value: number, tried = 1, keptCount = 0) => ({
    name,
    score: value,
    tried,
    kept: keptCount,
  });
  test("one constant a junior, best first, in source order on a tie, and says why", () => {
    expect(assignFocus(["j-1", "j-2"], [score("A", 1, 0), score("B", 2, 4, 3), score("C", 1, 0)], new Map())).toEqual([
      { junior: "j-1", focus: "B", why: "kept 3 of 4 tried" },
      { junior: "j-2", focus: "A", why: "never tried yet" },
    ]);
  });
  test("a junior keeps its constant while it is still chosen; only the one that dropped out moves", () => {
    const current = new Map([["j-1", "A"], ["j-2", "C"]]);
    const plan = assignFocus(["j-1", "j-2"], [score("A", 3), score("B", 2), score("C", 1)], current);
    expect(plan.map((entry) => [entry.junior, entry.focus])).toEqual([["j-1", "A"], ["j-2", "B"]]);
  });
  test("more juniors than constants share them; no constants, no plan", () => {
    expect(
      assignFocus(["j-1", "j-2", "j-3"], [score("A", 2), score("B", 1)], new Map()).map((entry) => entry.focus),
    ).toEqual(["A", "B", "A"]);
    expect(assignFocus(["j-1"], [], new Map())).toEqual([]);
  });
});

describe("the focus task", () => {
  test("what the chief writes is what the junior reads; a task without a focus line names none", () => {
    const task = formatFocusTask({ junior: "j-1", focus: "HIDDEN", why: "never tried yet" }, "train.mjs");
    expect(task).toBe(
      "Work on HIDDEN in train.mjs only (never tried yet); leave the other constants to the others.\n\nfocus: HIDDEN\n",
    );
    expect(parseFocus(`---\nfrom: chief-1\n---\n${task}`)).toEqual(["HIDDEN"]);
    expect(parseFocus("focus: LEARNING_RATE, STEPS, not a name\n")).toEqual(["LEARNING_RATE", "STEPS"]);
    expect(parseFocus("Try a cosine schedule.\n")).toEqual([]);
  });
  test("a focus narrows the step to its constants; one the file lacks leaves every constant open", () => {
    for (let seed = 0; seed < 20; seed++) {
      expect(proposeUntried(TRAIN, seededRng(seed), new Set(), new Set(["HIDDEN"]))!.description).toMatch(/^HIDDEN /);
    }
    const open = new Set(
      Array.from(
        { length: 20 },
        (_, seed) => proposeUntried(TRAIN, seededRng(seed), new Set(), new Set(["DROPOUT"]))!.description.split(" ")[0],
      ),
    );
    expect([...open].sort()).toEqual(["HIDDEN", "LEARNING_RATE", "STEPS"]);
  });
  test("a focus whose every step was tried on this code opens " +
    "the rest of the file, not a change already judged", () => {
    const tried = new Set(["HIDDEN 16 -> 20", "HIDDEN 16 -> 13"]);
    for (let seed = 0; seed < 10; seed++) {
      const proposal = proposeUntried(
        "const HIDDEN = 16;\nconst STEPS = 3000;\n",
        seededRng(seed),
        tried,
        new Set(["HIDDEN"]),
      )!;
      expect(tried.has(proposal.description)).toBe(false);
      expect(proposal.skipped).toBeGreaterThan(0);
    }
  });
  test("the junior reads its task before each step and says when its focus changes", async () => {
    const focuses = [["STEPS"], ["STEPS"], ["HIDDEN"]];
    const lines: string[] = [];
    const submitted: string[] = [];
    const options = {
      cwd: "/w",
      submitArgv: ["org", "submit"],
      rng: seededRng(1),
      log: (line: string) => lines.push(line),
      iterations: 3,
      pauseMs: 0,
    };
    await runHillclimb(options, {
      readText: async () => TRAIN, writeText: async () => undefined, delay: async () => undefined,
      submit: async (argv) => { submitted.push(argv.at(-1)!); return { output: "", exit: 0 }; },
      readFocus: async () => focuses.shift()!,
    });
    expect(submitted.map((description) => description.split(" ")[0])).toEqual(["STEPS", "STEPS", "HIDDEN"]);
    expect(lines.filter((line) => line.includes("focus"))).toEqual([
      "hillclimb: focus STEPS (its task)",
      "hillclimb: focus HIDDEN (its task)",
    ]);
  });
});

// A chief's world of two juniors, a ledger the test grows, and task commands that fail while `refusing` holds a name.
function fakeWorld(judged: JudgedChange[], refusing: Set<string>) {
  const tasks: { junior: string; body: string }[] = [];
  const world: ChiefWorld = {
    readText: async () => TRAIN,
    listJuniors: async () => ["junior-1", "junior-2"],
    listJudged: async () => [...judged],
    setTask: async (junior, body) => {
      if (refusing.has(junior)) return { ok: false, output: "org: the daemon did not take this command" };
      tasks.push({ junior, body });
      return { ok: true, output: "task set" };
    },
    delay: async () => undefined,
  };
  return { world, tasks };
}

describe("runChief", () => {
  test("tasks every junior at once, re-plans only when each has " +
    "a new result, and retries a task that failed", async () => {
    const judged: JudgedChange[] = [];
    const refusing = new Set(["junior-2"]);
    const { world, tasks } = fakeWorld(judged, refusing);
    const lines: string[] = [];
    await runChief({ cwd: "/w", log: (line) => lines.push(line), rounds: 1 }, world);
    expect(tasks.map((task) => [task.junior, parseFocus(task.body)])).toEqual([["junior-1", ["LEARNING_RATE"]]]);
    expect(lines.at(-1)).toBe(
      "chief: could not task junior-2, tried again on the next look: org: the daemon did not take this command",
    );
    refusing.clear();
    await runChief({ cwd: "/w", log: () => undefined, rounds: 1 }, world);
    expect(tasks.slice(1).map((task) => task.junior)).toEqual(["junior-1", "junior-2"]);
  });

  test("a constant that keeps failing is taken from its junior once " +
    "the juniors have reported, and a tried-less one given", async () => {
    const judged: JudgedChange[] = [];
    const { world, tasks } = fakeWorld(judged, new Set());
    let round = 0;
    const growing: ChiefWorld = { ...world, delay: async () => {
      round++;
      // After the first look, LEARNING_RATE fails again and again; HIDDEN gave a keep.
      judged.push(
        change("LEARNING_RATE 0.01 -> 0.02", "discard"),
        change(round === 1 ? "HIDDEN 16 -> 20" : "HIDDEN 20 -> 25", round === 1 ? "keep" : "discard"),
      );
    } };
    await runChief({ cwd: "/w", log: () => undefined, rounds: 4 }, growing);
    const focusOf = (junior: string) =>
      tasks.filter((task) => task.junior === junior).map((task) => parseFocus(task.body)[0]);
    expect(focusOf("junior-1")[0]).toBe("LEARNING_RATE");
    expect(focusOf("junior-1").at(-1)).toBe("STEPS");
    expect(focusOf("junior-2")).toEqual(["HIDDEN"]);
  });

  test("no juniors, or nothing to hand out, ends with why", async () => {
    const { world } = fakeWorld([], new Set());
    expect(
      await runChief({ cwd: "/w", log: () => undefined, rounds: 1 }, { ...world, listJuniors: async () => [] }),
    ).toEqual({
      kind: "failed",
      reason: "chief: no role reports to this one — give the juniors' role reports_to: <the chief's role> in org.yaml",
    });
    expect(
      await runChief(
        { cwd: "/w", log: () => undefined, rounds: 1 },
        { ...world, readText: async () => "let x = 1;\n" },
      ),
    ).toEqual({
      kind: "failed",
      reason: "chief: train.mjs in /w has no `const NAME = <positive number>;` line to hand out",
    });
  });
});
