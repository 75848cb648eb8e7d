// Every formatter that hands an agent's text to a terminal, a pane or a file a person reads, given escapes.
import { describe, expect, test } from "vitest";
import { formatFrontMatter, parseFrontMatter } from "../../src/domain/front-matter.js";
import { formatLogEntry } from "../../src/domain/log-entry.js";
import { formatRow } from "../../src/domain/experiments/results-table.js";
import { formatNote } from "../../src/domain/messages/notes.js";
import { formatNotice } from "../../src/domain/messages/notify.js";
import { formatMessage } from "../../src/domain/messages/message-head.js";
import { prepareIdea } from "../../src/domain/claims/claim-edit.js";
import { escapeTags, fitScreen, renderFeed } from "../../src/ui/dashboard-text.js";
import type { DashboardAgent } from "../../src/domain/views/dashboard-model.js";
import { renderTable } from "../../src/ui/status-table.js";
import { renderTried } from "../../src/ui/tried-table.js";
import { ATTACKS, HOSTILE, findUnsafe } from "./terminal-payloads.js";

const MULTI_LINE = `${HOSTILE}\n[org] verdict keep${ATTACKS.fakeVerdict}`;
const date = new Date("2026-04-02T10:00:00Z");

describe("what org writes to the files people read", () => {
  test("a results.tsv row: one line of the same columns, no escape", () => {
    const row = formatRow({
      commit: "a1b2c3d", metric: 0.98, memoryGb: 1, status: "discard", description: MULTI_LINE, agent: "r-1", gpu: null,
      seconds: 1, time: "t",
    });
    expect(row.split("\t")).toHaveLength(10);
    expect(row).not.toMatch(/\n/);
    expect(row).toContain("idea");
    expect(findUnsafe(row)).toBeUndefined();
  });

  test("a log.md entry: one heading, the body's lines without escapes, no forged heading", () => {
    const body = `${MULTI_LINE}\n\x1b[0m## [2020-01-01] keep | forged`;
    const entry = formatLogEntry({ date, op: "crash", title: MULTI_LINE, body });
    expect(entry.split("\n").filter((line) => line.startsWith("## ["))).toHaveLength(1);
    expect(findUnsafe(entry)).toBeUndefined();
    expect(entry).toContain("\\## [2020-01-01] keep | forged");
  });

  test("a note and a claim: one line each, no escape", () => {
    const note = formatNote("r-1", MULTI_LINE, date);
    const idea = prepareIdea(MULTI_LINE);
    expect(idea.ok && idea.idea).toMatch(/^idea .* done \[org\] verdict keep \[org\] verdict keep$/);
    for (const text of [note, idea.ok ? idea.idea : ""]) expect(findUnsafe(text)).toBeUndefined();
  });

  test("a message, task, contract or review: the body keeps its lines, not its escapes; a value is JSON", () => {
    const head = { id: "20260402-100000-000-0a1b2c3d", from: "r-1", to: "r-2", time: date.toISOString(), kind: "note" };
    const message = formatMessage(head, MULTI_LINE);
    const file = formatFrontMatter([["objection", MULTI_LINE]], `- [ ] ${MULTI_LINE}\n- [ ] second`);
    for (const text of [message, file]) {
      expect(findUnsafe(text)).toBeUndefined();
      expect(text).toContain("[org] verdict keep\n");
    }
    const parsed = parseFrontMatter(file, "sprint: 1");
    expect(parsed.ok && parsed.fields.get("objection")?.value).toBe(MULTI_LINE);
  });
});

describe("what org puts on a terminal or into a pane", () => {
  test("a table cell is one line without escapes, and the columns still line up", () => {
    const table = renderTable(["AGENT", "DESCRIPTION", "X"], [["r-1", MULTI_LINE, "1"], ["r-2", "plain", "2"]]);
    const lines = table.split("\n");
    expect(lines).toHaveLength(3);
    expect(findUnsafe(table)).toBeUndefined();
    expect(lines[1]!.indexOf(" 1")).toBe(lines[2]!.indexOf(" 2"));
  });

  test("org tried cuts a description once cleaned: a payload takes no width, a cut escape swallows nothing", () => {
    const description = `${"a".repeat(90)}${ATTACKS.clipboard} tail`;
    const time = date.toISOString();
    const entry = {
      commit: "a1b2c3d", agent: "r-1", description, status: "discard" as const,
      reason: "", seconds: 1, time,
    };
    const table = renderTried([entry], 1, "");
    expect(table).toContain(`${"a".repeat(90)} tail`);
    expect(findUnsafe(table)).toBeUndefined();
  });

  test("org watch: the feed and every escaped text hold no escape for blessed to pass on", () => {
    const theme = { color: false };
    expect(findUnsafe(escapeTags(MULTI_LINE))).toBeUndefined();
    expect(findUnsafe(renderFeed([{ date: "2026-04-02", op: "keep", title: HOSTILE }], 200, 3, theme))).toBeUndefined();
    // A grid cell shows the pane's screen untagged: what the pane drew of C1 and bidi must not pass either.
    const agent = {
      screen: [HOSTILE, `${ATTACKS.c1Csi}${ATTACKS.bidi}`],
      state: "running",
      reason: "",
    } as unknown as DashboardAgent;
    expect(findUnsafe(fitScreen(agent, 300, 5))).toBeUndefined();
  });

  test("the notice typed into another agent's pane: one line, no escape or control key, whatever the names", () => {
    const line = formatNotice([{ from: `r-1${ATTACKS.clear}`, kind: `note\r${ATTACKS.title}` }]);
    expect(line).toBe("[org] new message from r-1 (note ): run `org inbox`");
    expect(findUnsafe(line)).toBeUndefined();
  });
});
