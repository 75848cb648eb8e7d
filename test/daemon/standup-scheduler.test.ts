import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ConfigSchema } from "../../src/domain/config/schema.js";
import { StandupScheduler } from "../../src/daemon/standup-scheduler.js";
import { formatEntry, hashText, sealEntry } from "../../src/domain/experiments/journal.js";

const config = ConfigSchema.parse({
  runtimes: { bot: { command: ["bot"] } },
  roles: {
    chief: { prompt: "p.md", runtime: "bot" },
    junior: { prompt: "p.md", runtime: "bot", count: 2, reports_to: "chief" },
  },
  standup: { to: "chief", every: "1h", verdicts: 2 },
  progress: { max_bytes: 512 },
});
const HEADER = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\n";
const row = (agent: string, metric: string, description: string) =>
  `1a2b3c4\t${metric}\t1.0\tkeep\t${description}\t${agent}\tcpu\t1.0\t2026-01-07T10:00:00.000Z\n`;

let root: string;
let said: string[];
const scheduler = () =>
  new StandupScheduler({ root, readConfig: async () => ({ loaded: { config } }), say: (line) => said.push(line) });
const chiefInbox = () => readdirSync(join(root, "state/agents/chief-1/inbox")).filter((name) => name.endsWith(".md"));

describe("the standup scheduler", () => {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "org-standup-"));
    said = [];
    mkdirSync(join(root, "state/agents/junior-1"), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("a first look starts the count; the digest goes to the chief after enough verdicts, once", async () => {
    writeFileSync(join(root, "state/results.tsv"), HEADER + row("junior-1", "1.000000", "baseline"));
    const standups = scheduler();
    await standups.tick(new Date("2026-01-07T10:00:00.000Z"));
    expect(JSON.parse(readFileSync(join(root, "state/standup.json"), "utf8"))).toEqual({
      at: "2026-01-07T10:00:00.000Z",
      verdicts: 1,
    });
    writeFileSync(
      join(root, "state/results.tsv"),
      HEADER +
        row("junior-1", "1.000000", "baseline") +
        row("junior-2", "1.000000", "baseline") +
        row("junior-1", "0.900000", "cosine"),
    );
    await standups.tick(new Date("2026-01-07T10:00:06.000Z"));
    expect(said).toEqual([expect.stringMatching(/^standup \S+ to chief-1: 2 verdicts since the last standup$/)]);
    expect(chiefInbox()).toHaveLength(1);
    expect(readFileSync(join(root, "state/agents/chief-1/inbox", chiefInbox()[0]!), "utf8")).toMatch(
      /^---\nid: \S+\nfrom: org\nto: chief-1\ntime: \S+\nkind: standup\n---\n\n# Standup 2026-01-07 10:00 UTC\n/,
    );
    await standups.tick(new Date("2026-01-07T10:00:12.000Z"));
    expect(chiefInbox()).toHaveLength(1);
  });

  test("forged rows are no verdicts: a results.tsv the journal does not vouch for brings no standup", async () => {
    const legit = HEADER + row("junior-1", "1.000000", "baseline") + row("junior-2", "1.000000", "baseline");
    writeFileSync(join(root, "state/results.tsv"), legit);
    const genesis = sealEntry(
      undefined,
      { kind: "genesis", payload: { results: { lines: 3, sha256: hashText(legit) }, frontier: null } },
      new Date(),
    );
    writeFileSync(join(root, "state/journal.jsonl"), `${formatEntry(genesis)}\n`);
    const standups = scheduler();
    await standups.tick(new Date("2026-01-07T10:00:00.000Z"));
    writeFileSync(
      join(root, "state/results.tsv"),
      legit + row("junior-1", "0.100000", "forged") + row("junior-2", "0.200000", "forged too"),
    );
    await standups.tick(new Date("2026-01-07T10:00:06.000Z"));
    expect(said).toEqual([]);
    expect(JSON.parse(readFileSync(join(root, "state/standup.json"), "utf8"))).toEqual({
      at: "2026-01-07T10:00:00.000Z",
      verdicts: 2,
    });
  });

  test("a progress.md over its cap keeps its newest lines; the oldest move to progress-archive.md", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `- step ${i + 1}: tried a thing`);
    mkdirSync(join(root, "state/agents/junior-1/own"), { recursive: true });
    writeFileSync(join(root, "state/agents/junior-1/own/progress.md"), `${lines.join("\n")}\n`);
    await scheduler().tick(new Date());
    const kept = readFileSync(join(root, "state/agents/junior-1/own/progress.md"), "utf8");
    const archived = readFileSync(join(root, "state/agents/junior-1/progress-archive.md"), "utf8");
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(384);
    expect(`${archived}${kept.split("\n").slice(1).join("\n")}`).toBe(`${lines.join("\n")}\n`);
    expect(said).toEqual([
      expect.stringMatching(/^progress: moved \d+ old lines of junior-1's progress.md to progress-archive.md$/),
    ]);
  });
});
