// The fitted views as the CLI prints them on fixture state (no org running): at 80 columns no line is wider, and
// --wide or a pipe gets every row whole; `org --help` in groups, each command's help with an example.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { formatTriedEntry, type TriedEntry } from "../../../src/domain/experiments/tried-ledger.js";
import { measureWidth } from "../../../src/ui/text-width.js";
import { createRepo, removeDir, writeFiles } from "../../helpers/temp-repo.js";

const ORG_YAML = [
  "name: toy", "repo: .", "base: main", "gpus: none", "runtimes:", '  printer: { command: [sleep, "1000"] }', "roles:",
  "  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }", "",
].join("\n");
const HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram";
const IDEA = "raise the learning rate warmup from 10 to 200 steps and lower the weight decay, 学習率を上げる 🚀";

let dir: string;
beforeAll(() => {
  dir = createRepo({ "org.yaml": ORG_YAML, "prompts/researcher.md": "# R\n" });
  let best = 1;
  // A baseline, then 40 experiments of each of two program versions: aaaaaaaa keeps every 10th, bbbbbbbb every other.
  const rows = ["aaaaaaaa", "bbbbbbbb"].flatMap((version, side) => Array.from({ length: 40 }, (_, index) => {
    const keep = side === 0 ? index % 10 === 9 : index % 2 === 1;
    if (keep) best -= 0.01;
    const time = new Date(Date.UTC(2026, 0, 7, side * 10) + index * 60_000).toISOString();
    const metric = (keep ? best : best + 0.01).toFixed(6);
    const agent = `researcher-${(index % 3) + 1}`;
    const commit = `c${side}${index}`.padEnd(7, "0");
    return [commit, metric, "0.0", keep ? "keep" : "discard", IDEA, agent, "0", "1800.0", time, version].join("\t");
  }));
  const at = "2026-01-06T23:00:00.000Z";
  const baseline = ["b000000", "1.000000", "0.0", "keep", "baseline", "researcher-1", "0", "60.0", at, "aaaaaaaa"];
  const tried: TriedEntry[] = [0, 1, 2].map((index) => ({
    commit: String(index).repeat(40), agent: "researcher-1", description: `${IDEA} ${index}`, status: "discard",
    metric: 1.01, delta: 0.01, reason: "discard: worse", seconds: 1830, time: "2026-04-02T10:00:00.000Z",
  }));
  writeFiles(dir, {
    "state/results.tsv": [HEADER, baseline.join("\t"), ...rows, ""].join("\n"),
    "state/tried.jsonl": `${tried.map(formatTriedEntry).join("\n")}\n`,
  });
});
afterAll(() => removeDir(dir));

async function org(args: string[], columns?: number): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(["-C", dir, ...args], { out: (text) => out.push(text), err: () => undefined, columns });
  return { code, out: out.join("\n") };
}

const widest = (text: string) => Math.max(...text.split("\n").map(measureWidth));

describe("views on a terminal of 80 columns", () => {
  const views = [["tried"], ["history"], ["compare"], ["results"], ["doctor"]];
  test.each(views)("org %s: no line over 80; --wide and a pipe: every row whole", async (name) => {
    const fitted = await org([name], 80);
    const piped = await org([name]);
    expect(widest(fitted.out)).toBeLessThanOrEqual(80);
    expect((await org([name, "--wide"], 80)).out).toBe(piped.out);
    expect(fitted.code).toBe(piped.code);
    if (name !== "doctor") expect(widest(piped.out)).toBeGreaterThan(80);
  });

  test("tried: the description cut with … at 80 columns, whole in a pipe", async () => {
    const row = /^0000000 +researcher-1 +discard +\+0\.010000 +raise the learning rate warmup from …$/m;
    expect((await org(["tried"], 80)).out).toMatch(row);
    expect((await org(["tried"])).out).toContain(`${IDEA} 0`);
  });
});

describe("help for people", () => {
  test("org --help: four groups, in order, each with its commands and an example; no line over 80", async () => {
    const help = (await org(["--help"])).out;
    const headings = help.split("\n").filter((line) => /^\S.*:$/.test(line) && !/^(Usage|Options):/.test(line));
    expect(headings).toEqual([
      "Run the org:",
      "Watch it:",
      "Agents' commands (in an agent's worktree; people use some too):",
      "Programs (org.yaml and its prompts as each version ran):",
    ]);
    const groups = help.split("\n\n").filter((block) => headings.includes(block.split("\n")[0]!));
    const listed = (block: string) => block.split("\n").slice(1).filter((line) => !line.startsWith("  e.g."));
    const names = groups.map((block) => listed(block).map((line) => line.trim().split(" ")[0]));
    expect(names).toEqual([
      ["init", "validate", "doctor", "up", "down", "plan", "reload", "demo"],
      ["status", "watch", "attach", "logs", "results", "tried", "lineage", "traces", "ablate", "confirm", "report"],
      ["submit", "wait", "send", "inbox", "note", "claim", "claims", "task", "contract", "review"],
      ["history", "compare", "program"],
    ]);
    expect(groups.map((block) => block.split("\n").at(-1))).toEqual([
      "  e.g. org init --template autoresearch && org validate && org up",
      "  e.g. org status; org results; org logs researcher-1 -f",
      '  e.g. org submit -m "warm the learning rate up over 200 steps"',
      "  e.g. org history; org compare; org program restore 3f2a",
    ]);
    expect(widest(help)).toBeLessThanOrEqual(80);
  });

  test("every command's and subcommand's --help: its usage and an example; the fitted views take --wide", async () => {
    const help = (await org(["--help"])).out;
    const names = [...help.matchAll(/^ {2}([a-z]+) /gm)].map((match) => match[1]!);
    const subcommands = ["draft", "sign", "object", "status"].map((name) => `contract ${name}`);
    subcommands.push("program show", "program restore");
    const paths = [...names, ...subcommands];
    for (const path of paths) {
      const own = await org([...path.split(" "), "--help"]);
      expect(own.code, path).toBe(0);
      expect(own.out, path).toMatch(new RegExp(`^Usage: org ${path} `, "m"));
      expect(own.out, path).toMatch(new RegExp(`\\nExample:\\n {2}\\$ org ${path}\\b`));
    }
    for (const name of ["status", "results", "doctor", "tried", "history", "compare", "lineage"]) {
      expect((await org([name, "--help"])).out).toContain("--wide");
    }
  });
});
