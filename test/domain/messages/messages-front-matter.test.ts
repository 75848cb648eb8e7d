import { describe, expect, test } from "vitest";
import { formatMessage, MESSAGE_ID, newMessageId, parseMessage } from "../../../src/domain/messages/message-head.js";

const HEAD = {
  id: "20260107-101502-123-0a1b2c3d", from: "chief-1", to: "junior-2", time: "2026-01-07T10:15:02.123Z", kind: "task",
};
const GOOD = "---\nid: 20260107-101502-123-0a1b2c3d\nfrom: chief-1\nto: junior-2\ntime: 2026-01-07T10:15:02.123Z\n"
  + "kind: task\n---\n\nTry a cosine schedule.\n";

describe("message front matter", () => {
  test("format writes the five keys, a blank line and the body with one trailing newline", () => {
    expect(formatMessage(HEAD, "Try a cosine schedule.\n\n\n")).toBe(GOOD);
  });

  test("parse reads back what format wrote, extra keys included", () => {
    const text = formatMessage(HEAD, "line one\n\n## a heading\n- item", { sprint: "3", title: "a: b" });
    expect(text).toContain('\nsprint: 3\ntitle: "a: b"\n---\n');
    expect(parseMessage(text)).toEqual({
      ok: true,
      message: { ...HEAD, body: "line one\n\n## a heading\n- item\n", extra: { sprint: "3", title: "a: b" } },
    });
  });

  test("a body that itself holds --- lines stays intact", () => {
    const parsed = parseMessage(formatMessage(HEAD, "before\n---\nafter"));
    expect(parsed.ok && parsed.message.body).toBe("before\n---\nafter\n");
  });

  test("ids sort by time and carry 32 random bits", () => {
    const id = newMessageId(new Date("2026-01-07T10:15:02.123Z"), "0a1b2c3d");
    expect(id).toBe("20260107-101502-123-0a1b2c3d");
    expect(MESSAGE_ID.test(id)).toBe(true);
    expect(newMessageId(new Date("2026-01-07T10:15:02.124Z"), "00000000") > id).toBe(true);
  });

  test.each([
    ["no opening ---", "id: x\n", 1, "no front matter: the first line is not ---"],
    ["never closed", "---\nid: 20260107-101502-123-0a1b2c3d\nfrom: a\n", 3, "the front matter is never closed"],
    [
      "a line without a colon", GOOD.replace("from: chief-1", "from chief-1"), 3,
      'front matter line "from chief-1" is not "key: value"',
    ],
    [
      "a broken quoted value", GOOD.replace("kind: task", 'kind: "task'), 6,
      'front matter line "kind: \\"task" is not "key: value"',
    ],
    ["a repeated key", GOOD.replace("kind: task", "kind: task\nkind: note"), 7, 'front matter repeats "kind"'],
    ["a missing key", GOOD.replace("kind: task\n", ""), 6, 'front matter has no "kind"'],
    [
      "a bad id", GOOD.replace("id: 20260107-101502-123-0a1b2c3d", "id: ../../etc"), 2,
      'id "../../etc" is not a message id',
    ],
    ["an unsafe sender", GOOD.replace("from: chief-1", "from: ../chief"), 3, 'from "../chief" is not a name'],
    [
      "a time that is no date", GOOD.replace("time: 2026-01-07T10:15:02.123Z", "time: yesterday"), 5,
      'time "yesterday" is not a date',
    ],
  ])("%s: the line and what is wrong", (_, text, line, reason) => {
    const parsed = parseMessage(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect({ line: parsed.line, reason: parsed.reason }).toEqual({ line, reason });
  });

  test("every failure says how to fix it", () => {
    const parsed = parseMessage(GOOD.replace("kind: task\n", ""));
    expect(parsed).toEqual({ ok: false, line: 6, reason: 'front matter has no "kind"', fix: "add kind: note" });
  });
});
