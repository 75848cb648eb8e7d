import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readOpencodeUsage } from "../../../src/adapters/usage/opencode.js";
import { readClaudeLine } from "../../../src/domain/usage/claude-transcript.js";
import { readCodexLine } from "../../../src/domain/usage/codex-rollout.js";
import { readGeminiLine } from "../../../src/domain/usage/gemini-chat.js";
import { explainCursor, freshCursor, scanJsonl } from "../../../src/domain/usage/jsonl-scan.js";
import { takeNew } from "../../../src/domain/usage/ledger.js";
import type { LineReader, UsageRecord } from "../../../src/domain/usage/token-counts.js";
import { FIXTURES } from "../../helpers/org-cli.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const TRANSCRIPTS = join(FIXTURES, "transcripts");
// The scripted server's usage of request i (README.md beside the fixtures): what each CLI must have recorded.
const served = (i: number, cacheWrite = 0) => ({ input: 1000 + 7 * i, output: 40 + i, cacheRead: 300 + i, cacheWrite });
const counts = (records: UsageRecord[]) =>
  records.map(({ input, output, cacheRead, cacheWrite }) => ({ input, output, cacheRead, cacheWrite }));

function scanFile(file: string, read: LineReader) {
  const result = scanJsonl(readFileSync(join(TRANSCRIPTS, file), "utf8"), read, freshCursor(), file);
  return { ...result, replies: takeNew(result.records, new Set()) };
}

describe("what each CLI recorded, read back exactly as the server replied", () => {
  it("Claude Code: one reply written as two lines (text, tool call) counts once", () => {
    const { records, replies, cursor } = scanFile("claude/session.jsonl", readClaudeLine);
    expect(records).toHaveLength(5);
    expect(counts(replies)).toEqual([served(0, 50), served(1, 50), served(2, 50)]);
    expect(replies.map((reply) => reply.model)).toEqual(["claude-opus-5-5", "claude-opus-5-5", "claude-opus-5-5"]);
    expect(replies[0]!.id).toMatch(/^[0-9a-f-]{36}:msg_000001$/);
    expect(explainCursor(cursor, "session.jsonl", "Claude Code")).toBeUndefined();
  });

  it("Codex: token_usage_record per reply, cached input taken out of input_tokens, the model from turn_context", () => {
    const { replies, cursor } = scanFile("codex/rollout.jsonl", readCodexLine);
    expect(counts(replies)).toEqual([served(0), served(1), served(2)]);
    expect(replies.map((reply) => reply.model)).toEqual(["gpt-5", "gpt-5", "gpt-5"]);
    expect(cursor.context).toMatchObject({ model: "gpt-5", perReply: true });
    expect(explainCursor(cursor, "rollout.jsonl", "Codex")).toBeUndefined();
  });

  it("Codex without token_usage_record (older rollouts): each change of token_count's running total is a reply", () => {
    const text = readFileSync(join(TRANSCRIPTS, "codex/rollout.jsonl"), "utf8").split("\n").filter((line) =>
      !line.includes('"token_usage_record"')).join("\n");
    const doubled = text.replace(/^(.*"token_count".*)$/m, "$1\n$1");
    const { records } = scanJsonl(doubled, readCodexLine, freshCursor(), "old.jsonl");
    expect(counts(records)).toEqual([served(0), served(1), served(2)]);
  });

  it("Gemini CLI: the turns' replies once each (a message rewritten with its tool calls), "
    + "not the router's side call", () => {
    const { records, replies } = scanFile("gemini/session.jsonl", readGeminiLine);
    expect(records).toHaveLength(5);
    expect(counts(replies)).toEqual([served(1), served(2), served(3)]);
    expect(replies.map((reply) => reply.model)).toEqual(Array(3).fill("gemini-3.1-pro-preview"));
  });

  describe("opencode, read from its SQLite database file", () => {
    const dir = makeTempDir("org-opencode-");
    afterAll(() => removeDir(dir));

    it("the finished assistant messages, not the title call", async () => {
      const read = await readOpencodeUsage(join(TRANSCRIPTS, "opencode/opencode.db"), undefined);
      expect(read.kind).toBe("read");
      if (read.kind !== "read") return;
      expect(counts(read.records)).toEqual([served(1), served(2), served(3)]);
      expect(read.problem).toBeUndefined();
      expect(await readOpencodeUsage(join(TRANSCRIPTS, "opencode/opencode.db"), read.stamp)).toEqual({
        kind: "unchanged",
      });
    });

    it("with its WAL: committed frames override the file's pages", async () => {
      mkdirSync(join(dir, "wal"));
      cpSync(join(TRANSCRIPTS, "opencode/opencode.db"), join(dir, "wal/opencode.db"));
      cpSync(join(TRANSCRIPTS, "opencode/wal/opencode.db-wal"), join(dir, "wal/opencode.db-wal"));
      const read = await readOpencodeUsage(join(dir, "wal/opencode.db"), undefined);
      expect(read.kind === "read" && read.records.map((record) => [record.id, record.output])).toEqual([
        ["msg_23376230b00153kQnLpAquM3x5", 1041], ["msg_233764d59001oA0K5HH7o78kad", 42],
        ["msg_233765749001zM31Cb5pMx8epB", 43], ["msg_wal_only_row", 43],
      ]);
    });

    it("a file that is not SQLite, or a folder in its place: usage unknown, with why", async () => {
      const text = join(dir, "text.db");
      cpSync(join(TRANSCRIPTS, "gemini/session.jsonl"), text);
      expect(await readOpencodeUsage(text, undefined)).toEqual({
        kind: "failed",
        problem: `cannot read opencode's database ${text}: not a SQLite database`,
      });
      mkdirSync(join(dir, "folder.db"));
      expect(await readOpencodeUsage(join(dir, "folder.db"), undefined)).toEqual({
        kind: "failed",
        problem: `cannot read opencode's database ${join(dir, "folder.db")}: it is a directory`,
      });
    });
  });
});

describe("lines of an unknown shape: counted no further, and said why", () => {
  it("a file of JSON lines none of which is the CLI's", () => {
    const { cursor, records } = scanJsonl(
      '{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}\n',
      readClaudeLine,
      freshCursor(),
      "other.jsonl",
    );
    expect(records).toEqual([]);
    expect(explainCursor(cursor, "other.jsonl", "Claude Code")).toBe(
      "other.jsonl: an unknown shape — none of its 2 lines is a Claude Code transcript line",
    );
  });

  it("the CLI's own reply line with its usage in another shape", () => {
    const line = JSON.stringify({
      type: "assistant", sessionId: "s", timestamp: "2026-12-01T00:00:00Z",
      message: { id: "m", model: "x", usage: { input_tokens: "many", output_tokens: 3 } },
    });
    const { cursor } = scanJsonl(`${line}\n`, readClaudeLine, freshCursor(), "s.jsonl");
    expect(explainCursor(cursor, "s.jsonl", "Claude Code")).toBe('s.jsonl:1: an assistant line\'s message.usage has no '
      + 'whole-number input ({"input_tokens":"many","output_tokens":3})');
  });

  it("a whole line that is not JSON (a line cut short, then written after): the rest still counts", () => {
    const text = readFileSync(join(TRANSCRIPTS, "claude/session.jsonl"), "utf8");
    const broken = `{"type":"assistant","mess\n${text}`;
    const { cursor, records } = scanJsonl(broken, readClaudeLine, freshCursor(), "s.jsonl");
    expect(takeNew(records, new Set())).toHaveLength(3);
    expect(explainCursor(cursor, "s.jsonl", "Claude Code")).toBe(
      's.jsonl:1: a line that is not JSON ("{\\"type\\":\\"assistant\\",\\"mess")',
    );
  });

  it("a gemini message whose tokens lost their numbers, a token_usage_record without usage", () => {
    const gemini = scanJsonl(
      '{"id":"a","type":"gemini","timestamp":"2026-12-01T00:00:00Z","tokens":{"input":"x"}}\n',
      readGeminiLine,
      freshCursor(),
      "g.jsonl",
    );
    expect(gemini.cursor.problem).toBe('g.jsonl:1: a gemini message has tokens in an unknown shape ({"input":"x"})');
    const codex = scanJsonl(
      '{"timestamp":"2026-12-01T00:00:00Z","type":"token_usage_record","payload":{"response_id":"r"}}\n',
      readCodexLine,
      freshCursor(),
      "r.jsonl",
    );
    expect(codex.cursor.problem).toBe("r.jsonl:1: a token_usage_record has no usage");
  });
});
