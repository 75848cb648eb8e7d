import { describe, expect, test } from "vitest";
import { cleanLine, cleanText, formatJson } from "../../src/domain/safe-text.js";
import { ATTACKS, HOSTILE, findUnsafe } from "../security/terminal-payloads.js";

describe("cleanText", () => {
  test.each([
    ["OSC 52 clipboard write, BEL-terminated, payload and all", `a${ATTACKS.clipboard}b`, "ab"],
    ["OSC 0 title, ST-terminated", `a${ATTACKS.title}b`, "ab"],
    ["CSI screen clear and cursor home", `a${ATTACKS.clear}b`, "ab"],
    ["CSI colour around a fake verdict, after a carriage return", `a${ATTACKS.fakeVerdict}`, "a[org] verdict keep"],
    ["a carriage return that would overwrite the line", ATTACKS.carriageReturn, "honestforged"],
    ["bidi overrides and isolates", ATTACKS.bidi, "evil isolate"],
    ["C1 CSI (0x9b) sequences", `a${ATTACKS.c1Csi}b`, "ab"],
    ["C1 OSC up to C1 ST", `a${ATTACKS.c1Osc}b`, "ab"],
    ["DCS (sixel) up to ST", `a${ATTACKS.dcs}b`, "ab"],
    ["BEL, backspace and DEL", ATTACKS.bell, "ding"],
    ["an OSC never terminated: the rest is its payload, as a terminal would take it", "a\x1b]52;c;AAAA\nmore", "a"],
    ["a lone ESC and two-character escapes (RIS, charset)", "a\x1bcb\x1b(Bc\x1b", "abc"],
    ["a CSI with intermediates and private parameters", "a\x1b[?1049hb\x1b[1 qc", "abc"],
    ["C1 controls alone (NEL, ST, CSI without a final)", "a\u0085b\u009cc\u009b", "abc"],
  ])("%s", (_what, text, clean) => {
    expect(cleanText(text)).toBe(clean);
    expect(findUnsafe(cleanText(text))).toBeUndefined();
  });

  test("newlines and tabs of multi-line text are kept, CRLF reads as LF", () => {
    expect(cleanText("line one\r\n\tline two\nline three")).toBe("line one\n\tline two\nline three");
  });

  test("ordinary text, Unicode included, is untouched", () => {
    const text = "val_loss 0.98 → 0.97 · ünïcödé 日本語 — [org] {braces} ~`!@#$%^&*()";
    expect(cleanText(text)).toBe(text);
    expect(cleanLine(text)).toBe(text);
  });

  test("every attack at once leaves nothing unsafe", () => {
    expect(findUnsafe(HOSTILE)).toBeDefined();
    expect(findUnsafe(cleanText(HOSTILE))).toBeUndefined();
    expect(cleanText(HOSTILE)).toMatch(/^idea .* done$/);
  });
});

describe("cleanLine", () => {
  test("line breaks and tabs become one space, so a field stays one line", () => {
    const text = "try\r\nbigger\n\n[org] verdict keep\tnow\u2028too";
    expect(cleanLine(text)).toBe("try bigger [org] verdict keep now too");
  });

  test("a carriage return is a space, not an overwrite", () => {
    expect(cleanLine(`real work${ATTACKS.fakeVerdict}`)).toBe("real work [org] verdict keep");
  });

  test("an OSC spanning lines goes whole before lines are joined", () => {
    expect(cleanLine("a\x1b]0;multi\nline\x07b")).toBe("ab");
  });

  test("every attack at once: one line, nothing unsafe", () => {
    expect(cleanLine(HOSTILE)).not.toMatch(/\n/);
    expect(findUnsafe(cleanLine(HOSTILE))).toBeUndefined();
  });
});

describe("formatJson", () => {
  test("parses back to the original, escapes included, while its own text holds nothing unsafe", () => {
    const value = { description: HOSTILE, nested: [{ note: `${ATTACKS.c1Csi}${ATTACKS.bidi}\u2028` }] };
    const json = formatJson(value);
    expect(JSON.parse(json)).toEqual(value);
    expect(findUnsafe(json)).toBeUndefined();
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(json).toContain("\\u009b2J");
    expect(json).toContain("\\u202eevil");
  });

  test("as JSON.stringify for plain values, indent included", () => {
    const value = { a: [1, "two", null], b: { c: true } };
    expect(formatJson(value)).toBe(JSON.stringify(value, null, 2));
    expect(formatJson(value, 0)).toBe(JSON.stringify(value));
  });
});
