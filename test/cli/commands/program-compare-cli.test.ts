import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { createRepo, removeDir } from "../../helpers/temp-repo.js";

const ORG_YAML =
  'name: toy\nrepo: .\nbase: main\ngpus: none\nruntimes:\n  printer: { command: [sleep, ' +
    '"1000"] }\nroles:\n  researcher: { prompt: prompts/researcher.md, runtime: printer, count: 1 }\n';
const HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram";

let dir: string;
beforeEach(() => {
  dir = createRepo({ "org.yaml": ORG_YAML, "prompts/researcher.md": "# R\n" });
  mkdirSync(join(dir, "state"), { recursive: true });
});
afterEach(() => removeDir(dir));

/** A baseline, then `n` experiments per version: aaaaaaaa keeps every 10th, bbbbbbbb every other. */
function writeResults(n: number, versions = ["aaaaaaaa", "bbbbbbbb"]): void {
  let best = 1;
  const rows = versions.flatMap((version, side) => Array.from({ length: n }, (_, index) => {
    const keep = side === 0 ? index % 10 === 9 : index % 2 === 1;
    if (keep) best -= 0.01;
    return [
      `c${side}${index}`,
      (keep ? best : best + 0.01).toFixed(6),
      "0.0",
      keep ? "keep" : "discard",
      "idea",
      "r-1",
      "0",
      "1800.0",
      new Date(Date.UTC(2026, 0, 7, side * 10) + index * 60_000).toISOString(),
      version,
    ].join("\t");
  }));
  writeFileSync(
    join(dir, "state", "results.tsv"),
    [
      HEADER,
      ["b0", "1.000000", "0.0", "keep", "baseline", "r-1", "0", "60.0", "2026-01-06T23:00:00.000Z", versions[0]].join(
        "\t",
      ),
      ...rows,
      "",
    ].join("\n"),
  );
}
const org = (args: string[]) => runOrg(args, { cwd: dir });

describe("org compare", () => {
  test("the last two versions by default: a table, a named winner on keep rate, and --json with every interval", () => {
    writeResults(40);
    const text = org(["compare"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("A = aaaaaaaa: 40 experiments, 20.00 GPU-h, unpriced");
    expect(text.stdout).toMatch(
      /^keep rate\s+10\.0% \[\S+, \S+\]\s+50\.0% \[\S+, \S+\]\s+40\.0% \[\S+, \S+\]\s+bbbbbbbb better$/m,
    );
    expect(text.stdout).toMatch(/^best gain \/ \$\s+unpriced\s+unpriced\s+unpriced\s+unpriced$/m);
    // No verifier's store behind these hand-written rows: what each keep built on is unknown, and said so.
    expect(text.stdout).toContain(
      "lineage A (aaaaaaaa): 4 keeps: what they built on is unknown (not in the verifier's store)",
    );
    const json = JSON.parse(org(["compare", "aaaa", "bbbb", "--json"]).stdout) as {
      a: { program: string };
      lineage: { b: unknown };
      measures: { measure: string; diff: { interval: number[] }; verdict: { kind: string } }[];
    };
    expect(json.a.program).toBe("aaaaaaaa");
    expect(json.measures.find((line) => line.measure === "keepRate")).toMatchObject({ verdict: { kind: "better" } });
    expect(json.lineage.b).toEqual({ keeps: 20, cross: 0, descends: 0, unknown: 20, fraction: null });
  });

  test("bad input: one-liners that say what to do", () => {
    writeResults(3, ["aaaaaaaa"]);
    expect(org(["compare"]).stderr).toContain(
      "only one program version (aaaaaaaa) has run — change org.yaml or a prompt",
    );
    expect(org(["compare", "cccc", "aaaa"]).stderr).toContain("no program version cccc — saved versions: aaaaaaaa");
    expect(org(["compare", "aaaa", "aaaaaaaa"]).stderr).toContain(
      "A and B are both aaaaaaaa — name two different versions",
    );
    writeResults(3, ["aaaaaaaa", "aaaabbbb"]);
    expect(org(["compare", "aaaa", "aaaabbbb"]).stderr).toContain(
      "aaaa matches 2 versions: aaaaaaaa, aaaabbbb — give more of its digits",
    );
    const few = org(["compare"]);
    expect(few.code).toBe(0);
    expect(few.stdout).toContain("aaaaaaaa has 3 experiments, fewer than 5: not enough data to tell them apart");
    expect(few.stdout).not.toMatch(/ better$/m);
  });
});
