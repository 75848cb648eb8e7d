import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";

/**
 * pricing's model globs: none empty, and none hidden behind an earlier prefix glob (the first match wins, so
 * "claude-*" above "claude-opus-*" would price Opus at the wrong rate). Types and signs are the schema's.
 */
export function checkPricing(raw: Raw): Problem[] {
  const globs = Object.keys(asMap(raw.pricing) ?? {});
  return globs.flatMap((glob, index): Problem[] => {
    const path = ["pricing", glob];
    if (glob.trim() === "") return [{
      path,
      at: "key",
      message: "pricing has an empty model glob",
      fix: 'name a model, or a glob such as "claude-sonnet-*" (* any characters, ? one)',
    }];
    if (!/[*?]/.test(glob)) return [];
    const earlier = globs.slice(0, index)
      .find((other) => /^[^*?]*\*$/.test(other) && glob.startsWith(other.slice(0, -1)));
    if (!earlier) return [];
    return [{
      path,
      at: "key",
      message: `${formatPath(path)} is never used: "${earlier}" above it matches every model it matches`,
      fix: `move "${glob}" above "${earlier}"`,
    }];
  });
}
