// Red team across restarts: a daemon killed mid-write is told apart from a forger,
// and attacks made while it was down are found by the next one.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runResults } from "../../../src/cli/commands/results.js";
import type { VerifierPort } from "../../../src/domain/experiments/verifier-port.js";
import { checkResults, listTamperedRows } from "../../../src/domain/experiments/journal-check.js";
import { readChain } from "../../../src/domain/experiments/journal.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import {
  countLogEntries, createVerifierOrg, tickOnce, type VerifierOrg,
} from "../../helpers/test-org/verifier-loop.js";

const AGENTS = ["r-1", "r-2"] as const;
/** Two researchers, one verify run at a time. */
const createJournalOrg = () => createVerifierOrg({ daemon: false, agents: AGENTS, verify: { parallel: 1 } });

let org: VerifierOrg | undefined;
afterEach(() => {
  if (org) removeDir(org.root);
  org = undefined;
});

/** The rows of results.tsv the journal does not vouch for. */
function tamperedRows(current: VerifierOrg): string[] {
  const checked = checkResults(current.read("results.tsv"), readChain(current.read("journal.jsonl")));
  return listTamperedRows(checked).map((row) => row.line);
}

function rowsOf(current: VerifierOrg, commit: string): string[] {
  return current.read("results.tsv").split("\n").filter((line) => line.startsWith(`${commit.slice(0, 7)}\t`));
}

async function resultsText(root: string): Promise<string> {
  const out: string[] = [];
  await runResults({ root, json: false }, { out: (text) => void out.push(text), err: () => undefined });
  return out.join("\n");
}

describe("a killed daemon is no forger, and a forger is found after a restart", () => {
  test("killed between the journal entry and its row: the next daemon writes the row from the journal, quietly, "
    + "and does not run the commit again", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    const worse = org.commit("r-1", { "value.txt": "2.0\n" }, "double it");
    const request = org.submit("r-1", worse, "double it");
    // kill -9 right after the journal's append: the row never reaches results.tsv.
    const dying: VerifierPort = {
      ...org.port,
      appendResult: async () => { throw new Error("killed before the row"); },
    };
    await tickOnce(org.daemon(dying));
    expect(rowsOf(org, worse)).toEqual([]);
    expect(org.read("journal.jsonl")).toContain(`"request":"${request.id}"`);
    await org.settle(org.daemon());
    expect(rowsOf(org, worse)).toHaveLength(1);
    expect(JSON.parse(org.read(`verdicts/${request.id}.json`)).outcome.verdict.reason).toMatch(
      /^discard: recorded in results.tsv at \S+ before the daemon stopped; not run again$/,
    );
    const log = org.read("log.md");
    expect(
      countLogEntries(log, `recover | results.tsv row ${worse.slice(0, 7)} of r-1 (request `
        + `${request.id}) written from the journal`),
    ).toBe(1);
    expect(countLogEntries(log, "tamper |")).toBe(0);
    expect(tamperedRows(org)).toEqual([]);
    for (const agent of AGENTS) expect(org.inbox(agent)).not.toContain("tampering found");
  });

  test("killed halfway through a journal line: the torn line is dropped, the experiment runs, "
    + "and nothing is called tampering", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    const better = org.commit("r-2", { "value.txt": "0.5\n" }, "halve it");
    const request = org.submit("r-2", better, "halve it");
    appendFileSync(join(org.state, "journal.jsonl"), '{"hash":"3f1a');
    await org.settle(org.daemon());
    expect(org.ranFor(request)).toBe(true);
    expect(rowsOf(org, better)).toHaveLength(1);
    expect(org.best()).toBe(better);
    const chain = readChain(org.read("journal.jsonl"));
    expect([chain.torn, chain.broken]).toEqual([false, undefined]);
    expect(countLogEntries(org.read("log.md"), "recover | a journal entry cut short")).toBe(1);
    expect(countLogEntries(org.read("log.md"), "tamper |")).toBe(0);
    expect(tamperedRows(org)).toEqual([]);
  });

  test("killed between journaling a frontier move and making it: the next daemon completes the move, "
    + "ref and frontier.json, as a recovery", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    const baseline = org.read("frontier.json");
    const better = org.commit("r-1", { "value.txt": "0.5\n" }, "halve it");
    org.submit("r-1", better, "halve it");
    await org.settle(org.daemon());
    expect(org.best()).toBe(better);
    // As a daemon killed right after the journal's append leaves it: the ref and frontier.json one move behind.
    git(org.root, ["update-ref", "refs/heads/org/t/best", org.baseCommit]);
    writeFileSync(join(org.state, "frontier.json"), baseline);
    await tickOnce(org.daemon());
    expect(org.best()).toBe(better);
    expect(JSON.parse(org.read("frontier.json"))).toMatchObject({ commit: better, agent: "r-1", metric: 0.5 });
    expect(
      countLogEntries(org.read("log.md"), `recover | org best moved to ${better.slice(0, 7)} from the journal`),
    ).toBe(1);
    expect(countLogEntries(org.read("log.md"), "recover | the org best's record rewritten from the journal")).toBe(1);
    expect(countLogEntries(org.read("log.md"), "tamper |")).toBe(0);
  });

  test("the journal's last entries cut while the daemon was down: the rows they vouched for "
    + "show as tampered and are told", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    const worse = org.commit("r-1", { "value.txt": "2.0\n" }, "double it");
    org.submit("r-1", worse, "double it");
    await org.settle(org.daemon());
    const journal = join(org.state, "journal.jsonl");
    const lines = readFileSync(journal, "utf8").split("\n");
    // The row's entry and the verdict's after it.
    writeFileSync(journal, `${lines.slice(0, -3).join("\n")}\n`);
    await tickOnce(org.daemon());
    expect(tamperedRows(org)).toEqual([rowsOf(org, worse)[0]]);
    expect(
      countLogEntries(org.read("log.md"), `tamper | results.tsv row ${worse.slice(0, 7)} discard "double it" by `
        + `r-1 is not the verifier's`),
    ).toBe(1);
    for (const agent of AGENTS) expect(org.inbox(agent)).toContain("tampering found");
    expect(await resultsText(org.root)).toMatch(
      new RegExp(`TAMPERED results\\.tsv line \\d+: ${worse.slice(0, 7)} discard`),
    );
  });

  test("a journal line deleted while the daemon was down: the chain's break is told, set aside as evidence, "
    + "and new verdicts chain on from what holds", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    const journal = join(org.state, "journal.jsonl");
    const lines = readFileSync(journal, "utf8").split("\n");
    writeFileSync(journal, [...lines.slice(0, 2), ...lines.slice(3)].join("\n"));
    const loop = org.daemon();
    await tickOnce(loop);
    expect(countLogEntries(org.read("log.md"), "tamper | the journal breaks at line 3")).toBe(1);
    expect(readdirSync(org.state).some((name) => name.startsWith("journal.jsonl.tampered-"))).toBe(true);
    expect(tamperedRows(org).length).toBeGreaterThan(0);
    const better = org.commit("r-2", { "value.txt": "0.5\n" }, "halve it");
    org.submit("r-2", better, "halve it");
    await org.settle(loop);
    expect(readChain(org.read("journal.jsonl")).broken).toBeUndefined();
    expect(tamperedRows(org)).not.toContain(rowsOf(org, better)[0]);
  });

  test("an org from before the journal: its rows are unjournaled legacy, shown and counted; "
    + "a row forged after the journal began is not", async () => {
    org = createJournalOrg();
    await org.settle(org.daemon());
    // As an older org leaves it: results.tsv and frontier.json, no journal.
    const journal = join(org.state, "journal.jsonl");
    removeDir(journal);
    expect(await resultsText(org.root)).toContain(
      "unjournaled: 2 rows this org has no journal (started by an older org): shown and counted, but not checked",
    );
    const loop = org.daemon();
    await tickOnce(loop);
    expect(existsSync(journal)).toBe(true);
    appendFileSync(
      join(org.state, "results.tsv"),
      `deadbee\t0.000100\t0.0\tkeep\tforged\tr-1\tcpu\t1.0\t${new Date().toISOString()}\t0\t0\n`,
    );
    await tickOnce(loop);
    const text = await resultsText(org.root);
    expect(text).toContain("unjournaled: 2 rows written before the journal began");
    expect(text).toMatch(/TAMPERED results\.tsv line \d+: deadbee keep/);
    expect(text).toContain(`org best: score 1.000000 by`);
    expect(org.best()).toBe(org.baseCommit);
  });
});
