import { parse } from "yaml";
import { expect, test } from "vitest";
import { mayNameContracts } from "../../../src/domain/contracts/config-mention.js";

const plain = "name: o\nroles:\n  generator: { prompt: g.md, runtime: claude }\n"
  + "verify:\n  metric: { pattern: '^s: (.*)' }\n";

test("org.yaml without the word, nor an escape to spell it, has no contracts section: submit skips the load", () => {
  expect(mayNameContracts(plain)).toBe(false);
  expect((parse(plain) as Record<string, unknown>).contracts).toBeUndefined();
});

test("a contracts section however written is seen, so the contract rule is still checked", () => {
  const spelled = [
    `${plain}contracts: { generator: generator }\n`,
    `${plain}contracts: {}\n`,
    `${plain}"\\x63ontracts": { generator: generator }\n`,
    `${plain}"\\u0063ontracts": { generator: generator }\n`,
    `${plain}"\\U00000063ontracts": { generator: generator }\n`,
  ];
  for (const text of spelled) {
    expect((parse(text) as Record<string, unknown>).contracts).toBeDefined();
    expect(mayNameContracts(text)).toBe(true);
  }
});
