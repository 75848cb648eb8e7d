import { describe, expect, it } from "vitest";
import { findPrice, matchesGlob, priceCounts, priceModels } from "../../../src/domain/usage/pricing.js";
import { problemsOf, VALID } from "../../fixtures/configs/fake-probe.js";
import { load } from "../../fixtures/configs/fake-probe.js";

const counts = (input: number, output: number, cacheRead = 0, cacheWrite = 0) =>
  ({ input, output, cacheRead, cacheWrite });

describe("prices per million tokens, by model glob", () => {
  it("globs: * any characters (slashes too), ? one, the whole name", () => {
    expect(matchesGlob("claude-*", "claude-sonnet-4-5")).toBe(true);
    expect(matchesGlob("claude-*", "anthropic/claude-sonnet")).toBe(false);
    expect(matchesGlob("*/claude-*", "anthropic/claude-sonnet")).toBe(true);
    expect(matchesGlob("gpt-?", "gpt-5")).toBe(true);
    expect(matchesGlob("gpt-?", "gpt-55")).toBe(false);
    expect(matchesGlob("gpt-5.1", "gpt-5x1")).toBe(false);
  });

  it("the exact name wins over globs; then the first matching glob in org.yaml's order", () => {
    const pricing = {
      "claude-*": { input: 3, output: 15 },
      "claude-opus-*": { input: 15, output: 75 },
      "claude-opus-5-5": { input: 5, output: 25 },
    };
    expect(findPrice(pricing, "claude-opus-5-5")).toMatchObject({ kind: "priced", glob: "claude-opus-5-5" });
    expect(findPrice(pricing, "claude-opus-4")).toMatchObject({ kind: "priced", glob: "claude-*" });
    expect(findPrice(pricing, "gpt-5")).toEqual({
      kind: "unpriced",
      reason: 'no price for model "gpt-5" under pricing in org.yaml',
    });
  });

  it("dollars: each kind of token at its own price per million", () => {
    const price = { "m": { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } };
    expect(priceCounts(counts(1_000_000, 0), "m", price)).toEqual({ kind: "priced", usd: 3 });
    const cost = priceCounts(counts(3021, 123, 903, 150), "m", price);
    expect(cost.kind === "priced" && cost.usd).toBeCloseTo((3021 * 3 + 123 * 15 + 903 * 0.3 + 150 * 3.75) / 1e6, 12);
  });

  it("unpriced, never guessed: an unknown model, or cache tokens with no cache price; zero tokens cost nothing", () => {
    expect(priceCounts(counts(10, 1, 5), "m", { m: { input: 1, output: 1 } })).toEqual({
      kind: "unpriced",
      reason: 'pricing."m" has no cache_read price, and model "m" used cache-read tokens',
    });
    expect(priceCounts(counts(10, 1, 0, 0), "m", { m: { input: 1, output: 1 } })).toMatchObject({ kind: "priced" });
    expect(priceCounts(counts(0, 0), "nobody-priced-me", {})).toEqual({ kind: "priced", usd: 0 });
    expect(priceModels({ a: counts(1e6, 0), b: counts(1, 0) }, { a: { input: 2, output: 2 } })).toEqual({
      costUsd: null,
      priced: false,
      unpriced: 'no price for model "b" under pricing in org.yaml',
    });
    expect(priceModels({ a: counts(1e6, 0) }, { a: { input: 2, output: 2 } })).toEqual({ costUsd: 2, priced: true });
    expect(priceModels({ a: counts(1e6, 0) }, {})).toMatchObject({ costUsd: null, priced: false });
  });
});

describe("org.yaml pricing: file:line:col: what — fix", () => {
  const withPricing = (block: string) => `${VALID}pricing:\n${block}`;

  it("a valid table loads, globs and exact names alike", async () => {
    const result = await load(withPricing('  "claude-opus-*": { input: 15, output: 75, cache_read: 1.5, cache_write: '
      + '18.75 }\n  gpt-5: { input: 1.25, output: 10 }\n'));
    expect(result.ok && result.loaded.config.pricing).toEqual({
      "claude-opus-*": { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 },
      "gpt-5": { input: 1.25, output: 10 },
    });
  });

  it("a negative price, a price that is not a number, a missing output", async () => {
    const prices = '  "claude-*": { input: -3, output: "15$" }\n  gpt-5: { input: 1 }\n';
    expect(await problemsOf(withPricing(prices))).toEqual([
      'org.yaml:9:24: pricing["claude-*"].input must be at least 0, got -3 — write 0 or more',
      'org.yaml:9:36: pricing["claude-*"].output must be a number, got "15$" — write a number such as 15',
      'org.yaml:10:10: pricing.gpt-5 is missing required key "output" — add output: 15',
    ]);
  });

  it("an empty glob", async () => {
    expect(await problemsOf(withPricing('  "": { input: 1, output: 2 }\n'))).toEqual([
      'org.yaml:9:3: pricing has an empty model glob — name a model, or a glob such as "claude-sonnet-*" '
        + '(* any characters, ? one)',
    ]);
  });

  it("a glob that an earlier prefix glob always beats", async () => {
    const prices = '  "claude-*": { input: 3, output: 15 }\n  "claude-opus-*": { input: 15, output: 75 }\n';
    expect(await problemsOf(withPricing(prices))).toEqual([
      'org.yaml:10:3: pricing["claude-opus-*"] is never used: "claude-*" above it matches every model it matches — '
        + 'move "claude-opus-*" above "claude-*"',
    ]);
  });
});
