import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  formatHeader, formatRow, parseResults, type ResultRow,
} from "../../../src/domain/experiments/results-table.js";
import { createResultsAppender } from "../../../src/adapters/store/results-file.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const time = "2026-04-02T10:00:00.000Z";
const row = (over: Partial<ResultRow>): ResultRow => ({
  commit: "a1b2c3d", metric: 0.99, memoryGb: 1, status: "keep", description: "idea", agent: "alice", gpu: 0,
  seconds: 10, time, ...over,
});
const OLD_HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\t"
  + "lines_added\tlines_removed";
const OLD_ROW = `b2c3d4e\t0.980000\t1.0\tkeep\told idea\tbob\t1\t20.0\t${time}\t3\t1`;

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("the program column of results.tsv", () => {
  test("after time, before the budget and lines columns; written empty for a row with no program", () => {
    const extras = { lines_added: 3, lines_removed: 1 };
    expect(formatHeader("val_bpb", Object.keys(extras))).toBe(
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\tprogram\tlines_added\tlines_removed",
    );
    expect(formatRow(row({ program: "1a2b3c4d", extras }))).toBe(
      `a1b2c3d\t0.990000\t1.0\tkeep\tidea\talice\t0\t10.0\t${time}\t1a2b3c4d\t3\t1`,
    );
    expect(parseResults(`${formatHeader("val_bpb")}\n${formatRow(row({}))}\n`).rows[0]).not.toHaveProperty("program");
  });

  test("a file from before the column parses, its rows unversioned: "
    + "its lines columns are not read as a program", () => {
    expect(parseResults(`${OLD_HEADER}\n${OLD_ROW}\n`).rows).toEqual([
      {
        commit: "b2c3d4e", metric: 0.98, memoryGb: 1, status: "keep", description: "old idea", agent: "bob", gpu: 1,
        seconds: 20, time,
      },
    ]);
  });

  test("each header names the columns of the rows after it", () => {
    const text = `${OLD_HEADER}\n${OLD_ROW}\n${formatHeader("val_bpb", ["lines_added", "lines_removed"])}\n`
      + `${formatRow(row({ program: "1a2b3c4d", extras: { lines_added: 3, lines_removed: 1 } }))}\n`;
    const table = parseResults(text);
    expect(table.metricName).toBe("val_bpb");
    expect(table.rows.map((r) => [r.commit, r.program])).toEqual([["b2c3d4e", undefined], ["a1b2c3d", "1a2b3c4d"]]);
  });

  test("appending to a file from before the column adds the new header once, and never rewrites a row", async () => {
    dir = makeTempDir("org-results-program-");
    const file = join(dir, "results.tsv");
    writeFileSync(file, `${OLD_HEADER}\n${OLD_ROW}\n`);
    const append = createResultsAppender(dir);
    const header = formatHeader("val_bpb", ["lines_added", "lines_removed"]);
    const lines = ["c1", "c2"].map((commit) =>
      formatRow(row({ commit, program: "1a2b3c4d", extras: { lines_added: 0, lines_removed: 0 } })));
    await Promise.all(lines.map((line) => append(header, line)));
    expect(readFileSync(file, "utf8")).toBe(`${OLD_HEADER}\n${OLD_ROW}\n${header}\n${lines[0]}\n${lines[1]}\n`);
    // A second appender (a new daemon) finds the header already there.
    await createResultsAppender(dir)(header, lines[0]!);
    expect(readFileSync(file, "utf8").split("\n").filter((line) => line.startsWith("commit\t"))).toHaveLength(2);
    expect(parseResults(readFileSync(file, "utf8")).rows.map((r) => r.program ?? "unversioned")).toEqual([
      "unversioned", "1a2b3c4d", "1a2b3c4d", "1a2b3c4d",
    ]);
  });
});
