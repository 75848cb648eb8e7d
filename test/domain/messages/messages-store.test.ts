import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { MessagesSchema } from "../../../src/domain/config/schema.js";
import { deliverMessage, pickArchived } from "../../../src/domain/messages/deliver.js";
import { parseMessage } from "../../../src/domain/messages/message-head.js";
import { markRead, readInbox, readSent } from "../../../src/domain/messages/read-inbox.js";
import { appendNote } from "../../../src/domain/messages/notes.js";
import { addNote } from "../../../src/adapters/store/notes-board.js";
import { mailPort } from "../../../src/adapters/store/inbox-files.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const settings = MessagesSchema.parse({ inbox_max: 5, max_bytes: 256 });
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function state(): string {
  const dir = makeTempDir("org-messages-");
  dirs.push(dir);
  return dir;
}

let tick = 0;
/** Deliver with a clock a millisecond apart per call, so ids sort in sending order. */
function send(dir: string, to: string[], body: string, from = "chief-1", kind = "task") {
  tick++;
  return deliverMessage(mailPort, dir, { from, to, kind, body }, settings, {
    now: new Date(Date.UTC(2026, 0, 7, 10, 0, 0, tick)),
    entropy: tick.toString(16).padStart(8, "0"),
  });
}

const inbox = (dir: string, agent: string) => join(dir, "agents", agent, "inbox");
const listing = (path: string) => (existsSync(path) ? readdirSync(path).sort() : []);

describe("delivering messages", () => {
  test("one file per recipient, same id, front matter naming each recipient", async () => {
    const dir = state();
    const { id, files } = await send(dir, ["junior-1", "junior-2"], "run the baseline twice");
    expect(files).toEqual([join(inbox(dir, "junior-1"), `${id}.md`), join(inbox(dir, "junior-2"), `${id}.md`)]);
    const parsed = parseMessage(readFileSync(files[1]!, "utf8"));
    expect(parsed).toEqual({
      ok: true,
      message: {
        id, from: "chief-1", to: "junior-2", time: new Date(Date.UTC(2026, 0, 7, 10, 0, 0, tick)).toISOString(),
        kind: "task", body: "run the baseline twice\n", extra: {},
      },
    });
    expect(readFileSync(join(dir, "messages", "sent", "chief-1.jsonl"), "utf8")).toBe(
      `${JSON.stringify({
        id, from: "chief-1", to: ["junior-1", "junior-2"], kind: "task", time: parsed.ok ? parsed.message.time : "",
        summary: "run the baseline twice",
      })}\n`,
    );
  });

  test("a message over the size cap is refused and nothing is written", async () => {
    const dir = state();
    await expect(send(dir, ["junior-1"], "x".repeat(257))).rejects.toThrow("the message is 257 bytes, "
      + "over the cap of 256 (messages.max_bytes in org.yaml) — "
      + "shorten it, or write the details to a file and send its path");
    await expect(send(dir, ["junior-1"], "é".repeat(129))).rejects.toThrow(
      "the message is 258 bytes, over the cap of 256",
    );
    expect(listing(dir)).toEqual([]);
  });

  test("an empty message, an unsafe kind or recipient is refused and nothing is written", async () => {
    const dir = state();
    await expect(send(dir, ["junior-1"], " \n")).rejects.toThrow(
      "the message is empty — write some text, or give -f a file that has some",
    );
    await expect(send(dir, ["junior-1"], "hi", "chief-1", "a b")).rejects.toThrow(
      `kind "a b" contains a space — use 1-40 letters, digits, '-' or '_', starting with a letter or digit, e.g. "a-b"`,
    );
    await expect(send(dir, ["../junior-1"], "hi")).rejects.toThrow('recipient "../junior-1" contains ".", "/"');
    expect(listing(dir)).toEqual([]);
  });

  test("past inbox_max the oldest messages move to the archive, read ones first, then unread", async () => {
    const dir = state();
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) ids.push((await send(dir, ["junior-1"], `message ${index}`)).id);
    await markRead(mailPort, dir, "junior-1", [ids[1]!, ids[3]!], new Date("2026-01-07T11:00:00.000Z"));
    for (let index = 5; index < 8; index++) ids.push((await send(dir, ["junior-1"], `message ${index}`)).id);
    const archive = join(inbox(dir, "junior-1"), "archive");
    expect(listing(archive)).toEqual([
      `${ids[0]}.md`, `${ids[1]}.md`, `${ids[1]}.read.json`, `${ids[3]}.md`, `${ids[3]}.read.json`,
    ]);
    expect(listing(inbox(dir, "junior-1")).filter((name) => name.endsWith(".md"))).toEqual(
      [2, 4, 5, 6, 7].map((index) => `${ids[index]}.md`),
    );
    const { unread } = await readInbox(mailPort, dir, "junior-1");
    expect(unread.map((message) => message.body)).toEqual([
      "message 2\n", "message 4\n", "message 5\n", "message 6\n", "message 7\n",
    ]);
    const first = async () => (await readSent(mailPort, dir, "chief-1", 20))[0]!.deliveries;
    expect(await first()).toEqual([{ agent: "junior-1", state: "archived unread" }]);
    expect(await markRead(mailPort, dir, "junior-1", [ids[0]!], new Date("2026-01-07T12:00:00.000Z"))).toEqual({
      marked: [ids[0]],
      already: [],
    });
    expect(await first()).toEqual([{ agent: "junior-1", state: "read", at: "2026-01-07T12:00:00.000Z" }]);
  });

  test("pickArchived takes as many as the excess: read ids oldest first, then unread oldest first", () => {
    expect(pickArchived(["c", "a", "b", "d"], new Set(["d", "b"]), 1)).toEqual(["b", "d", "a"]);
    expect(pickArchived(["c", "a", "b", "d"], new Set(["d"]), 2)).toEqual(["d", "a"]);
    expect(pickArchived(["a", "b"], new Set(["a"]), 2)).toEqual([]);
  });
});

describe("reading and receipts", () => {
  test("the sender sees unread, then read with the time, also after archiving", async () => {
    const dir = state();
    const { id } = await send(dir, ["junior-1", "junior-2"], "first task");
    expect((await readSent(mailPort, dir, "chief-1", 20)).map((sent) => sent.deliveries)).toEqual([
      [{ agent: "junior-1", state: "unread" }, { agent: "junior-2", state: "unread" }],
    ]);
    expect(await markRead(mailPort, dir, "junior-2", [id], new Date("2026-01-07T11:00:00.000Z"))).toEqual({
      marked: [id],
      already: [],
    });
    expect(await markRead(mailPort, dir, "junior-2", [id], new Date())).toEqual({ marked: [], already: [id] });
    expect(JSON.parse(readFileSync(join(inbox(dir, "junior-2"), "receipts", `${id}.json`), "utf8"))).toEqual({
      id,
      by: "junior-2",
      at: "2026-01-07T11:00:00.000Z",
    });
    for (let index = 0; index < 5; index++) await send(dir, ["junior-2"], `filler ${index}`);
    expect(existsSync(join(inbox(dir, "junior-2"), "archive", `${id}.md`))).toBe(true);
    const [first] = await readSent(mailPort, dir, "chief-1", 20);
    expect(first!.deliveries).toEqual([
      { agent: "junior-1", state: "unread" },
      { agent: "junior-2", state: "read", at: "2026-01-07T11:00:00.000Z" },
    ]);
  });

  test("marking a bad or unknown id is refused before any receipt is written", async () => {
    const dir = state();
    const { id } = await send(dir, ["junior-1"], "hello");
    await expect(markRead(mailPort, dir, "junior-1", [id, "../../x"], new Date())).rejects.toThrow(
      '"../../x" is not a message id — copy one from `org inbox`, e.g. 20260107-101502-123-0a1b2c3d',
    );
    await expect(markRead(mailPort, dir, "junior-1", [id, "20260107-101502-123-ffffffff"], new Date())).rejects.toThrow(
      "no message 20260107-101502-123-ffffffff in the inbox of junior-1 — `org inbox` lists its unread messages",
    );
    expect(listing(inbox(dir, "junior-1"))).toEqual([`${id}.md`]);
  });

  test("a malformed file is reported with its line and skipped; the others still read", async () => {
    const dir = state();
    const { id } = await send(dir, ["junior-1"], "good one");
    const bad = join(inbox(dir, "junior-1"), "20260107-090000-000-00000000.md");
    writeFileSync(bad, "---\nid: 20260107-090000-000-00000000\nfrom chief-1\n---\n\nbody\n");
    writeFileSync(join(inbox(dir, "junior-1"), "notes.md"), "not a message\n");
    const { unread, problems } = await readInbox(mailPort, dir, "junior-1");
    expect(unread.map((message) => message.id)).toEqual([id]);
    expect(problems).toEqual([
      {
        file: bad, line: 3, reason: 'front matter line "from chief-1" is not "key: value"',
        fix: "write it as key: value, e.g. kind: note",
      },
      {
        file: join(inbox(dir, "junior-1"), "notes.md"), line: 1, reason: "the file name is not a message id",
        fix: "send messages with `org send`, which names each file <id>.md",
      },
    ]);
  });
});

describe("the notes board", () => {
  test("appending past the cap moves the oldest entries out", () => {
    let board: string | undefined;
    const archived: string[] = [];
    for (let index = 0; index < 7; index++) {
      const next = appendNote(board, `- entry ${index}`, 5);
      board = next.board;
      archived.push(...next.archived);
    }
    expect(board!.split("\n").filter((line) => line.startsWith("- "))).toEqual([
      "- entry 2", "- entry 3", "- entry 4", "- entry 5", "- entry 6",
    ]);
    expect(archived).toEqual(["- entry 0", "- entry 1"]);
  });

  test("twenty writers at once: every note lands once, on the board or in the archive", async () => {
    const dir = state();
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        addNote(dir, `r-${index}`, `lesson ${index}`, 8, new Date("2026-01-07T10:15:00Z"))),
    );
    const lines = [
      readFileSync(join(dir, "notes.md"), "utf8"), readFileSync(join(dir, "notes-archive.md"), "utf8"),
    ].join("\n").split("\n").filter((line) => line.startsWith("- "));
    expect(lines.sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `- 2026-01-07 10:15 r-${index}: lesson ${index}`).sort(),
    );
    expect(
      readFileSync(join(dir, "notes.md"), "utf8").split("\n").filter((line) => line.startsWith("- ")),
    ).toHaveLength(8);
  });

  test("a note over the length cap or empty is refused", async () => {
    const dir = state();
    await expect(addNote(dir, "r-1", "x".repeat(301), 8)).rejects.toThrow(
      "the note is 301 characters, over 300 — keep it to one short line; put details in a file and note its path",
    );
    await expect(addNote(dir, "r-1", "  ", 8)).rejects.toThrow(
      'the note is empty — write the lesson: org note "what you learned"',
    );
    expect(listing(dir)).toEqual([]);
  });
});
