import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { mailPort } from "../../../src/adapters/store/inbox-files.js";
import { MessagesSchema } from "../../../src/domain/config/schema.js";
import { deliverMessage } from "../../../src/domain/messages/deliver.js";
import { markRead, readInbox, readSent } from "../../../src/domain/messages/read-inbox.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const settings = MessagesSchema.parse({});
const FIX = "org writes these records itself: remove the file";
const dirs: string[] = [];
afterEach(() => {
  dirs.splice(0).forEach(removeDir);
  vi.restoreAllMocks();
});

// chief-1 sent one message to junior-1; the receipts folder exists, as after a first `org inbox -r`.
async function sentOne(): Promise<{ state: string; id: string; receipts: string; log: string }> {
  const state = makeTempDir("org-records-");
  dirs.push(state);
  const clock = { now: new Date("2026-01-07T10:00:00.000Z"), entropy: "0a1b2c3d" };
  const outgoing = { from: "chief-1", to: ["junior-1"], kind: "task", body: "go" };
  const { id } = await deliverMessage(mailPort, state, outgoing, settings, clock);
  const receipts = join(state, "agents", "junior-1", "inbox", "receipts");
  mkdirSync(receipts, { recursive: true });
  return { state, id, receipts, log: join(state, "messages", "sent", "chief-1.jsonl") };
}

function captureStderr(): string[] {
  const lines: string[] = [];
  const write = (chunk: string | Uint8Array) => lines.push(String(chunk)) > 0;
  vi.spyOn(process.stderr, "write").mockImplementation(write);
  return lines;
}

describe("a hostile or malformed messaging record is no record, with a line saying so", () => {
  test("a receipt that is not one counts as read at an unknown time, and is left as it was", async () => {
    const { state, id, receipts } = await sentOne();
    const file = join(receipts, `${id}.json`);
    writeFileSync(file, '{"id": "../../x", "at": 3}');
    const stderr = captureStderr();
    const [sent] = await readSent(mailPort, state, "chief-1", 20);
    expect(sent!.deliveries).toEqual([{ agent: "junior-1", state: "read", at: null }]);
    expect((await readInbox(mailPort, state, "junior-1")).unread).toEqual([]);
    const why = `not a read receipt of ${id} ({ id, by, at }): counted as read, at an unknown time`;
    expect(stderr).toEqual([`org: ${file}: ${why} — ${FIX}\n`]);
    expect(readFileSync(file, "utf8")).toBe('{"id": "../../x", "at": 3}');
  });

  test("a receipt that is a link is not followed: the message stays unread", async () => {
    const { state, id, receipts } = await sentOne();
    const target = join(state, "elsewhere.json");
    writeFileSync(target, JSON.stringify({ id, by: "junior-1", at: "2026-01-07T11:00:00.000Z" }));
    const file = join(receipts, `${id}.json`);
    symlinkSync(target, file);
    const stderr = captureStderr();
    const [sent] = await readSent(mailPort, state, "chief-1", 20);
    expect(sent!.deliveries).toEqual([{ agent: "junior-1", state: "unread" }]);
    expect((await readInbox(mailPort, state, "junior-1")).unread.map((message) => message.id)).toEqual([id]);
    expect(stderr).toEqual([`org: ${file}: ${file} is a symbolic link: not followed — ${FIX}\n`]);
  });

  test("sent log lines that are not records are skipped by number; the others still show", async () => {
    const { state, id, log } = await sentOne();
    writeFileSync(log, `${readFileSync(log, "utf8")}not json\n{"id":"x","to":"all"}\n`);
    const stderr = captureStderr();
    expect((await readSent(mailPort, state, "chief-1", 20)).map((sent) => sent.record.id)).toEqual([id]);
    expect(stderr).toEqual([
      `org: ${log}: line 2 is not a sent record — ${FIX}\n`, `org: ${log}: line 3 is not a sent record — ${FIX}\n`,
    ]);
  });

  test("a sent log that is a link is not read", async () => {
    const { state, log } = await sentOne();
    const other = join(state, "messages", "sent", "other.jsonl");
    writeFileSync(other, readFileSync(log, "utf8"));
    rmSync(log);
    symlinkSync(other, log);
    const stderr = captureStderr();
    expect(await readSent(mailPort, state, "chief-1", 20)).toEqual([]);
    expect(stderr).toEqual([`org: ${log}: ${log} is a symbolic link: not followed — ${FIX}\n`]);
  });

  test("a receipts folder that is a link is not written through: marking read fails, naming it", async () => {
    const { state, id, receipts } = await sentOne();
    const elsewhere = join(state, "elsewhere");
    mkdirSync(elsewhere);
    rmSync(receipts, { recursive: true });
    symlinkSync(elsewhere, receipts);
    const marking = markRead(mailPort, state, "junior-1", [id], new Date("2026-01-07T11:00:00.000Z"));
    await expect(marking).rejects.toThrow(`${receipts} is not a folder (a symbolic link or a file): not followed`);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(join(state, "agents"))).toEqual(["junior-1"]);
  });
});
