import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { findConstants, proposeChange, runHillclimb } from "../../../src/roles/index.js";
import { defaultSubmitArgv, hillclimbWorld } from "../../../src/flows/builtin/hillclimb-world.js";
import type { Runner } from "../../../src/adapters/process.js";
import { createRng } from "../../fuzz/rng.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const TRAIN = [
  "// knobs",
  "const LEARNING_RATE = 0.01;",
  "const HIDDEN = 16;",
  "const LAYERS = 2; // depth",
  "const WEIGHT_DECAY = 0;",
  'const NAME = "x";',
  "",
  "function f() {",
  "  const STEPS = 10;",
  "}",
  "",
].join("\n");
const RECORD_SUBMIT = fileURLToPath(new URL("../../fixtures/bin/record-submit.mjs", import.meta.url));

// An rng that replays fixed draws, to pick an exact constant and direction.
function replay(...draws: number[]): () => number {
  return () => draws.shift() ?? 0;
}

describe("proposeChange", () => {
  test("finds module-level positive numeric constants only", () => {
    expect(findConstants(TRAIN).map((c) => [c.name, c.literal, c.isInteger])).toEqual([
      ["LEARNING_RATE", "0.01", false],
      ["HIDDEN", "16", true],
      ["LAYERS", "2", true],
    ]);
  });
  test("scales a float by a factor and changes only that literal", () => {
    const proposal = proposeChange(TRAIN, replay(0, 0.6));
    expect(proposal?.description).toBe("LEARNING_RATE 0.01 -> 0.0125");
    expect(proposal?.source).toBe(TRAIN.replace("const LEARNING_RATE = 0.01;", "const LEARNING_RATE = 0.0125;"));
  });
  test("a large integer moves by a quarter, a small one by one, keeping comments", () => {
    expect(proposeChange(TRAIN, replay(0.4, 0.2))?.description).toBe("HIDDEN 16 -> 20");
    expect(proposeChange(TRAIN, replay(0.4, 0.9))?.description).toBe("HIDDEN 16 -> 13");
    const smaller = proposeChange(TRAIN, replay(0.9, 0.9));
    expect(smaller?.description).toBe("LAYERS 2 -> 1");
    expect(smaller?.source).toContain("const LAYERS = 1; // depth");
  });
  test("never reaches zero, and a float stays a float", () => {
    expect(proposeChange("const LAYERS = 1;\n", replay(0, 0.9))?.description).toBe("LAYERS 1 -> 2");
    expect(proposeChange("const SCALE = 1.0;\n", replay(0, 0.9))?.description).toBe("SCALE 1.0 -> 2.0");
  });
  test("is deterministic for a seed and stays positive over many steps", () => {
    const walk = (seed: number) => {
      const rng = createRng(seed).next;
      let source = TRAIN;
      const descriptions: string[] = [];
      for (let i = 0; i < 200; i++) {
        const proposal = proposeChange(source, rng)!;
        descriptions.push(proposal.description);
        source = proposal.source;
      }
      return { descriptions, source };
    };
    expect(walk(7)).toEqual(walk(7));
    expect(walk(7).descriptions).not.toEqual(walk(8).descriptions);
    expect(findConstants(walk(7).source)).toHaveLength(3);
  });
  test("nothing to tune is undefined", () => {
    expect(proposeChange("const x = 1;\nlet Y = 2;\n", Math.random)).toBeUndefined();
  });
});

describe("runHillclimb", () => {
  let dir = "";
  afterEach(() => removeDir(dir));

  test("re-reads train.mjs every time, because the verifier resets it after a discard", async () => {
    dir = makeTempDir();
    const path = join(dir, "train.mjs");
    writeFileSync(path, "const LEARNING_RATE = 0.01;\n");
    const submitted: string[][] = [];
    const resettingRunner: Runner = {
      async run(argv) {
        submitted.push(argv);
        writeFileSync(path, "const LEARNING_RATE = 0.01;\n");
        return {
          argv,
          exitCode: 1,
          signal: null,
          stdout: "verdict: discard\n",
          stderr: "",
          timedOut: false,
          durationMs: 1,
        };
      },
    };
    const lines: string[] = [];
    await runHillclimb(
      {
        cwd: dir,
        submitArgv: ["org", "submit"],
        rng: replay(0, 0.6, 0, 0.6),
        log: (line) => lines.push(line),
        iterations: 2,
        pauseMs: 0,
      },
      hillclimbWorld(resettingRunner),
    );
    // The second step starts from 0.01 again, and is not the step just submitted.
    expect(submitted).toEqual([
      ["org", "submit", "-m", "LEARNING_RATE 0.01 -> 0.0125"],
      ["org", "submit", "-m", "LEARNING_RATE 0.01 -> 0.005"],
    ]);
    expect(lines).toEqual([
      "hillclimb: LEARNING_RATE 0.01 -> 0.0125",
      "verdict: discard",
      "hillclimb: submit exited 1",
      "hillclimb: skipped 1 change(s) already tried on this code (org tried)",
      "hillclimb: LEARNING_RATE 0.01 -> 0.005",
      "verdict: discard",
      "hillclimb: submit exited 1",
    ]);
  });

  test("a train.mjs with nothing to tune stops with a message", async () => {
    dir = makeTempDir();
    writeFileSync(join(dir, "train.mjs"), "let x = 1;\n");
    expect(
      await runHillclimb({ cwd: dir, submitArgv: ["true"], log: () => {}, iterations: 1 }, hillclimbWorld()),
    ).toEqual({
      kind: "failed",
      reason: `hillclimb: ${join(dir, "train.mjs")} has no \`const NAME = <positive number>;\` line to tune`,
    });
  });

  test("runs the real submit command three times with -m and prints its output", async () => {
    dir = makeTempDir();
    writeFileSync(join(dir, "train.mjs"), "const LEARNING_RATE = 0.01;\nconst STEPS = 3000;\n");
    const record = join(dir, "record.jsonl");
    const lines: string[] = [];
    await runHillclimb(
      {
        cwd: dir,
        submitArgv: [process.execPath, RECORD_SUBMIT, record],
        rng: createRng(1).next,
        log: (line) => lines.push(line),
        iterations: 3,
        pauseMs: 10,
      },
      hillclimbWorld(),
    );
    const calls = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { args: string[]; train: string });
    expect(calls).toHaveLength(3);
    const descriptions = lines
      .filter((line) => line.startsWith("hillclimb: "))
      .map((line) => line.slice("hillclimb: ".length));
    expect(calls.map((call) => call.args)).toEqual(descriptions.map((description) => ["-m", description]));
    expect(lines.filter((line) => line === "verdict: keep")).toHaveLength(3);
    // Nothing resets the file here, so each submit sees the previous changes plus one more.
    expect(calls[2]!.train).toBe(readFileSync(join(dir, "train.mjs"), "utf8"));
  });
});

describe("defaultSubmitArgv", () => {
  test("ORG_SUBMIT as a JSON array wins", () => {
    expect(defaultSubmitArgv({ ORG_SUBMIT: '["org","submit"]' })).toEqual(["org", "submit"]);
  });
  test("otherwise this package's bin/org.js submit under the current node", () => {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    expect(defaultSubmitArgv({})).toEqual([process.execPath, join(root, "bin", "org.js"), "submit"]);
  });
  test("a malformed ORG_SUBMIT says what it expects", () => {
    expect(() => defaultSubmitArgv({ ORG_SUBMIT: "org submit" })).toThrow(
      'ORG_SUBMIT must be a JSON array of strings such as ["org","submit"], got org submit',
    );
  });
});
