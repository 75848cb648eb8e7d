import { totalTokens, type TokenCounts } from "./token-counts.js";

/** Dollars per million tokens of one model (org.yaml `pricing.<model-glob>`). */
export interface Price {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export type Pricing = Record<string, Price>;

export type PriceMatch = { kind: "priced"; glob: string; price: Price } | { kind: "unpriced"; reason: string };
export type Cost = { kind: "priced"; usd: number } | { kind: "unpriced"; reason: string };

/**
 * `*` is any run of characters (slashes too: opencode's models read provider/model), `?` one;
 * the whole name must match.
 */
export function matchesGlob(glob: string, model: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${pattern}$`).test(model);
}

/** The model's own entry, else the first glob in org.yaml's order that matches it; no price is ever assumed. */
export function findPrice(pricing: Pricing, model: string): PriceMatch {
  const exact = pricing[model];
  if (exact) return { kind: "priced", glob: model, price: exact };
  const glob = Object.keys(pricing).find((candidate) => matchesGlob(candidate, model));
  if (glob) return { kind: "priced", glob, price: pricing[glob]! };
  return { kind: "unpriced", reason: `no price for model "${model}" under pricing in org.yaml` };
}

/** The dollars of some tokens of one model; unpriced when the model, or a kind of token it used, has no price. */
export function priceCounts(counts: TokenCounts, model: string, pricing: Pricing): Cost {
  if (totalTokens(counts) === 0) return { kind: "priced", usd: 0 };
  const match = findPrice(pricing, model);
  if (match.kind === "unpriced") return match;
  const { price, glob } = match;
  for (const [kind, key] of [["cacheRead", "cache_read"], ["cacheWrite", "cache_write"]] as const) {
    if (counts[kind] > 0 && price[key] === undefined) return {
      kind: "unpriced",
      reason: `pricing."${glob}" has no ${key} price, and model "${model}" used ${key.replace("_", "-")} tokens`,
    };
  }
  const usd = (counts.input * price.input + counts.output * price.output + counts.cacheRead * (price.cache_read ?? 0)
    + counts.cacheWrite * (price.cache_write ?? 0)) / 1_000_000;
  return { kind: "priced", usd };
}

/** The dollars of tokens spread over models: null with the first reason when any model's share is unpriced. */
export function priceModels(byModel: Record<string, TokenCounts>, pricing: Pricing): {
  costUsd: number | null; priced: boolean; unpriced?: string;
} {
  let usd = 0;
  for (const [model, counts] of Object.entries(byModel)) {
    const cost = priceCounts(counts, model, pricing);
    if (cost.kind === "unpriced") return { costUsd: null, priced: false, unpriced: cost.reason };
    usd += cost.usd;
  }
  return { costUsd: usd, priced: true };
}
