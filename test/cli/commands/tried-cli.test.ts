// `org tried` and the duplicates line of `org results`, read from real state files.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { main } from "../../../src/cli/main.js";
import { runResults } from "../../../src/cli/commands/results.js";
import { formatTriedEntry, type TriedEntry } from "../../../src/domain/experiments/tried-ledger.js";
import { makeTempDir, removeDir, writeFiles } from "../../helpers/temp-repo.js";

const A = "a1b2c3d".padEnd(40, "0");
const B = "b2c3d4e".padEnd(40, "0");
const C = "c3d4e5f".padEnd(40, "0");
const KEY = { patchId: "1".repeat(40), tree: "2".repeat(40) };
const ENTRIES: TriedEntry[] = [
  {
    commit: A,
    agent: "r-1",
    description: "Raise the LR warmup",
    status: "discard",
    metric: 1.01,
    delta: 0.01,
    reason: "discard: worse",
    seconds: 1830,
    time: "2026-04-02T10:00:00.000Z",
    change: KEY,
  },
  {
    commit: B,
    agent: "r-2",
    description: "wider MLP",
    status: "keep",
    metric: 0.98,
    delta: -0.02,
    reason: "keep: better",
    seconds: 1700,
    time: "2026-04-02T12:00:00.000Z",
  },
  {
    commit: C,
    agent: "r-2",
    description: "duplicate of a1b2c3d by r-1: Raise the LR warmup",
    status: "discard",
    metric: 1.01,
    delta: 0.03,
    reason: "discard: already tried",
    seconds: 0,
    time: "2026-04-02T11:00:00.000Z",
    change: KEY,
    duplicateOf: { commit: A, agent: "r-1", status: "discard", description: "Raise the LR warmup", seconds: 1830 },
  },
];

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

function writeOrg(ledger: string): string {
  dir = makeTempDir();
  writeFiles(dir, {
    "state/tried.jsonl": ledger,
    "state/results.tsv": [
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
      `${A.slice(0, 7)}\t1.010000\t1.0\tdiscard\tRaise the LR warmup\tr-1\t0\t1830.0\t2026-04-02T10:00:00.000Z`,
      `${C.slice(0, 7)}\t1.010000\t0.0\tdiscard\tduplicate of a1b2c3d by r-1: ` +
        `Raise the LR warmup\tr-2\t1\t0.0\t2026-04-02T11:00:00.000Z`,
      "",
    ].join("\n"),
  });
  return dir;
}

async function org(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["-C", dir!, ...args], { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("org tried", () => {
  test("every idea tried, newest first: when, commit, agent, verdict, delta, description", async () => {
    writeOrg(`${ENTRIES.map(formatTriedEntry).join("\n")}\n`);
    expect(await org(["tried"])).toEqual({ code: 0, err: "", out: [
      "WHEN              COMMIT   AGENT  VERDICT  DELTA      DESCRIPTION",
      "2026-04-02 12:00  b2c3d4e  r-2    keep     -0.020000  wider MLP",
      "2026-04-02 11:00  c3d4e5f  r-2    discard  +0.030000  duplicate of a1b2c3d by r-1: Raise the LR warmup",
      "2026-04-02 10:00  a1b2c3d  r-1    discard  +0.010000  Raise the LR warmup",
      "3 tried",
    ].join("\n") });
  });

  test("words filter in any case; --json gives the entries that match", async () => {
    writeOrg(`${ENTRIES.map(formatTriedEntry).join("\n")}\n`);
    const found = await org(["tried", "lr", "Warmup", "r-1"]);
    expect(found.out.split("\n").slice(1)).toEqual([
      "2026-04-02 11:00  c3d4e5f  r-2    discard  +0.030000  duplicate of a1b2c3d by r-1: Raise the LR warmup",
      "2026-04-02 10:00  a1b2c3d  r-1    discard  +0.010000  Raise the LR warmup",
      '2 of 3 tried match "lr Warmup r-1"',
    ]);
    expect(JSON.parse((await org(["tried", "mlp", "--json"])).out)).toEqual([ENTRIES[1]]);
    expect((await org(["tried", "dropout"])).out).toBe('no tried idea matches "dropout" (3 tried in all)');
  });

  test("no ledger yet: said so, exit 0; no org state at all: an error, exit 1, as org status", async () => {
    dir = makeTempDir();
    expect(await org(["tried"])).toEqual({
      code: 1,
      out: "",
      err: `org: no org state in ${join(dir, "state")} — run \`org up\` first`,
    });
    writeFiles(dir, { "state/org.json": "{}" });
    expect(await org(["tried"])).toEqual({
      code: 0,
      out: "nothing tried yet: state/tried.jsonl has no entries",
      err: "",
    });
  });

  test("a broken line is named on stderr with file and line; " +
    "the rest is listed and the file is left as it was", async () => {
    const text = `${formatTriedEntry(ENTRIES[0]!)}\n{"commit": 42}\n${formatTriedEntry(ENTRIES[1]!)}\n`;
    writeOrg(text);
    const result = await org(["tried"]);
    expect(result.code).toBe(0);
    expect(result.err).toBe(
      "org: state/tried.jsonl:2: not an experiment-ledger entry: commit: Invalid input: expected string, " +
        "received number — the line is skipped; fix it or delete it",
    );
    expect(result.out.split("\n").at(-1)).toBe("2 tried");
    expect(readFileSync(join(dir!, "state", "tried.jsonl"), "utf8")).toBe(text);
  });
});

describe("org results", () => {
  test("counts the duplicates the ledger answered and the GPU time they saved, in text and --json", async () => {
    writeOrg(`${ENTRIES.map(formatTriedEntry).join("\n")}\n`);
    const text = await org(["results"]);
    expect(text.out).toContain(
      "\nduplicates: 1 answered from the experiment ledger without a run, 30m of GPU time saved",
    );
    expect(JSON.parse((await org(["results", "--json"])).out).duplicates).toEqual({ answered: 1, savedSeconds: 1830 });
  });

  test("no duplicates: no line, and zeros in --json", async () => {
    writeOrg("");
    writeFileSync(join(dir!, "state", "tried.jsonl"), "");
    const out: string[] = [];
    await runResults({ root: dir!, json: false }, { out: (line) => out.push(line), err: () => undefined });
    expect(out.join("\n")).not.toContain("duplicates");
    expect(JSON.parse((await org(["results", "--json"])).out).duplicates).toEqual({ answered: 0, savedSeconds: 0 });
  });
});
