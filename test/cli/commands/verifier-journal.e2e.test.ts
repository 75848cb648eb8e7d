// Red team, daemon running: each scripted attack on the verifier's record must fail and be told (log.md once, every
// agent, the person).
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runHistory } from "../../../src/cli/commands/history.js";
import { runResults } from "../../../src/cli/commands/results.js";
import { runWait } from "../../../src/cli/commands/wait.js";
import { formatEntry, readChain, sealEntry } from "../../../src/domain/experiments/journal.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import {
  countLogEntries, createVerifierOrg, tickOnce, type VerifierOrg,
} from "../../helpers/test-org/verifier-loop.js";

const AGENTS = ["r-1", "r-2"] as const;
/** Two researchers, one verify run at a time. */
const createJournalOrg = () => createVerifierOrg({ daemon: false, agents: AGENTS, verify: { parallel: 1 } });

let org: VerifierOrg | undefined;

// The tick reuses a listing of the org's heads up to a second old: a hand-moved best is put back by the next fresh one.
const tickUntilPutBack = (current: VerifierOrg, loop: Parameters<typeof tickOnce>[0]) =>
  pollUntil(async () => (await tickOnce(loop), current.best() === current.baseCommit), {
    what: "the hand-moved org best put back", timeoutMs: 10_000,
  });
afterEach(() => {
  if (org) removeDir(org.root);
  org = undefined;
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text) } };
}

async function readResults(
  root: string,
): Promise<{
  best?: { commit: string; metric: number };
  tampered: { row: string; reason: string }[];
  agents: { agent: string; best?: number }[];
}> {
  const json = capture();
  await runResults({ root, json: true }, json.io);
  return JSON.parse(json.out.join("\n"));
}

function forgeRow(state: string, commit: string, metric: string, agent: string, description = "forged"): void {
  appendFileSync(
    join(state, "results.tsv"),
    `${commit}\t${metric}\t0.0\tkeep\t${description}\t${agent}\tcpu\t1.0\t${new Date().toISOString()}\t0\t0\n`,
  );
}

/** Every agent was told, the person saw a line, and log.md holds the entry exactly once. */
function expectTold(current: VerifierOrg, heading: string): void {
  expect(countLogEntries(current.read("log.md"), heading)).toBe(1);
  for (const agent of AGENTS) expect(current.inbox(agent)).toContain("tampering found");
  expect(current.log.some((line) => line.startsWith("tamper: "))).toBe(true);
}

describe("the verifier's word is final, daemon running", () => {
  test("a forged row naming no judged commit is shown as tampered, counts for no best, and is told once", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    forgeRow(org.state, "deadbee", "0.000100", "r-1");
    await tickOnce(loop);
    await tickOnce(loop);
    expectTold(org, "tamper | results.tsv row deadbee keep \"forged\" by r-1 is not the verifier's");
    const results = await readResults(org.root);
    expect(results.best?.commit).toBe(org.baseCommit.slice(0, 7));
    expect(results.tampered).toEqual([
      expect.objectContaining({
        row: expect.stringMatching(/^deadbee\t/),
        reason: expect.stringContaining("no journal entry"),
      }),
    ]);
    const text = capture();
    await runResults({ root: org.root, json: false }, text.io);
    expect(text.out.join("\n")).toMatch(/TAMPERED results\.tsv line \d+: deadbee keep "forged" by r-1/);
    // Reading it again tells nothing new.
    await runResults({ root: org.root, json: false }, capture().io);
    expect(countLogEntries(org.read("log.md"), "tamper | results.tsv row deadbee")).toBe(1);
  });

  test("org history counts no forged row: a forged keep is " +
    "neither an experiment nor a keep of any program", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    forgeRow(org.state, "deadbee", "0.000100", "r-1", "forged keep");
    const json = capture();
    await runHistory({ root: org.root, json: true }, json.io);
    const programs = (
      JSON.parse(json.out.join("\n")) as {
        programs: { experiments: number; keeps: number; bestAfter: number | null }[];
      }
    ).programs;
    expect(programs.map((line) => [line.experiments, line.keeps, line.bestAfter])).toEqual([[0, 0, 1]]);
  });

  test("a forged keep for a real, unjudged commit is not taken as its verdict: " +
    "the commit runs and is judged on its merits", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const worse = org.commit("r-1", { "value.txt": "5.0\n" }, "make it worse");
    forgeRow(org.state, worse.slice(0, 7), "0.100000", "r-1", "make it worse");
    const request = org.submit("r-1", worse, "make it worse");
    await org.settle(loop);
    expect(org.ranFor(request)).toBe(true);
    const verdict = JSON.parse(org.read(`verdicts/${request.id}.json`));
    expect(verdict.outcome.verdict.kind).toBe("discard");
    expect(org.best()).toBe(org.baseCommit);
    const results = await readResults(org.root);
    expect(results.agents.find((agent) => agent.agent === "r-1")?.best).toBe(1);
    expect(results.tampered).toEqual([
      expect.objectContaining({
        reason: expect.stringContaining(`the verifier recorded ${worse.slice(0, 7)} for r-1 otherwise`),
      }),
    ]);
    expectTold(org, `tamper | results.tsv row ${worse.slice(0, 7)} keep "make it worse" by r-1 is not the verifier's`);
  });

  test("a hand-moved org best is put back to the journaled commit and told", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const evil = git(org.root, [
      "commit-tree",
      `${org.baseCommit}^{tree}`,
      "-p",
      org.baseCommit,
      "-m",
      "unjudged",
    ]).trim();
    git(org.root, ["update-ref", "refs/heads/org/t/best", evil]);
    await tickUntilPutBack(org, loop);
    expectTold(org, "tamper | org best moved by hand, put back");
    expect(org.read("log.md")).toContain(`moved by hand at ${evil.slice(0, 7)} (a commit the verifier never judged)`);
  });

  test("an agent branch and the org best moved to an unjudged commit: the best goes back, " +
    "the commit is judged as a plain commit, and only its verdict moves the best", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const better = org.commit("r-2", { "value.txt": "0.5\n" }, "halve it");
    git(org.root, ["update-ref", "refs/heads/org/t/best", better]);
    await tickUntilPutBack(org, loop);
    // Judged once its head has stood a tick period, as a plain commit.
    const current = org;
    await pollUntil(async () => (await tickOnce(loop), current.best() === better), {
      what: "the plain commit's keep to move the best",
      timeoutMs: 30_000,
    });
    expect(org.read("journal.jsonl")).toContain(`"kind":"frontier","payload":{"agent":"r-2","at":`);
    expectTold(org, "tamper | org best moved by hand, put back");
  });

  test("an edited verdict file is refused by org wait and told; the untouched one is shown", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const doubled = org.commit("r-1", { "value.txt": "2.0\n" }, "double it");
    const request = org.submit("r-1", doubled, "double it", { reply: "message" });
    await org.settle(loop);
    const shown = capture();
    await runWait({ root: org.root, id: request.id }, shown.io);
    expect(shown.out[0]).toMatch(/· discard$/);
    const file = join(org.state, "verdicts", `${request.id}.json`);
    const verdict = JSON.parse(readFileSync(file, "utf8"));
    verdict.outcome.verdict = { kind: "keep", metric: 0.1, delta: -0.9, reason: "keep: forged" };
    writeFileSync(file, JSON.stringify(verdict, null, 2));
    await expect(runWait({ root: org.root, id: request.id }, capture().io)).rejects.toThrow(
      /is not the verdict the verifier wrote/,
    );
    expect(countLogEntries(org.read("log.md"), `tamper | verdict file ${request.id}.json is not the verifier's`)).toBe(
      1,
    );
    for (const agent of AGENTS) expect(org.inbox(agent)).toContain("tampering found: verdict file");
    // A verdict file made up for an id the verifier never judged is refused as well.
    const made = `${new Date().toISOString().replace(/[:.]/g, "-")}-r-1-abcdef0`;
    writeFileSync(join(org.state, "verdicts", `${made}.json`), JSON.stringify(verdict));
    await expect(runWait({ root: org.root, id: made }, capture().io)).rejects.toThrow(/never wrote a verdict/);
  });

  test("a truncated journal is put back from the daemon's copy and told", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const journal = join(org.state, "journal.jsonl");
    const before = readFileSync(journal, "utf8");
    truncateSync(journal, before.lastIndexOf("\n", before.length - 2) + 1);
    await tickOnce(loop);
    expect(readFileSync(journal, "utf8")).toBe(before);
    expectTold(org, "tamper | the journal was changed by hand");
    expect(org.read("log.md")).toMatch(
      /the journal was cut after entry \d+: entries \d+\.\.\d+ removed; the verifier put back its own copy/,
    );
  });

  test("a journal line deleted, or a well-sealed entry appended, is put back and told", async () => {
    org = createJournalOrg();
    const loop = org.daemon();
    await org.settle(loop);
    const journal = join(org.state, "journal.jsonl");
    const before = readFileSync(journal, "utf8");
    const lines = before.split("\n");
    writeFileSync(journal, [...lines.slice(0, 1), ...lines.slice(2)].join("\n"));
    await tickOnce(loop);
    expect(readFileSync(journal, "utf8")).toBe(before);
    expect(org.read("log.md")).toMatch(/the journal breaks at line 2: seq 2 where 1 was due/);
    expect(countLogEntries(org.read("log.md"), "tamper | the journal was changed by hand")).toBe(1);
    // A forger who seals its own entry the way the verifier does: the chain holds, but it is not the daemon's chain.
    const row = `deadbee\t0.000100\t0.0\tkeep\tsealed forgery\tr-2\tcpu\t1.0\t${new Date().toISOString()}\t0\t0`;
    const forged = sealEntry(
      readChain(before).entries.at(-1),
      { kind: "row", payload: { agent: "r-2", commit: "deadbee".padEnd(40, "0"), request: "x", header: "", row } },
      new Date(),
    );
    appendFileSync(journal, `${formatEntry(forged)}\n`);
    appendFileSync(join(org.state, "results.tsv"), `${row}\n`);
    await tickOnce(loop);
    expect(readFileSync(journal, "utf8")).toBe(before);
    expect(org.read("log.md")).toContain("1 entries were added after entry");
    expect((await readResults(org.root)).tampered).toEqual([expect.objectContaining({ row })]);
    expect(
      countLogEntries(
        org.read("log.md"),
        `tamper | results.tsv row deadbee keep "sealed forgery" by r-2 is not the verifier's`,
      ),
    ).toBe(1);
  });
});
