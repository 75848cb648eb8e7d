import { describe, expect, it } from "vitest";
import { VALID, load, problemsOf } from "../../fixtures/configs/fake-probe.js";
import { readClaimSettings } from "../../../src/domain/config/claims-schema.js";

const claims = (section: string) => `${VALID}claims:\n${section}`;

describe("config: the claims section", () => {
  it("defaults to similarity 0.6 and a 2h timeout, with or without the section", async () => {
    const without = await load(VALID);
    expect(without.ok && readClaimSettings(without.loaded.config)).toEqual({ similarity: 0.6, timeout: "2h" });
    const partial = await load(claims("  similarity: 0.8\n"));
    expect(partial.ok && readClaimSettings(partial.loaded.config)).toEqual({ similarity: 0.8, timeout: "2h" });
  });

  it("loads both keys, the timeout as a duration or seconds", async () => {
    const result = await load(claims("  similarity: 1\n  timeout: 90m\n"));
    expect(result.ok && result.loaded.config.claims).toEqual({ similarity: 1, timeout: "90m" });
    expect(await problemsOf(claims("  timeout: 3600\n"))).toEqual([]);
  });

  it("refuses a similarity outside (0, 1], a timeout that is no duration and an unknown key, "
    + "all at once with file:line:col", async () => {
    expect(await problemsOf(claims("  similarity: 0\n  timeout: soon\n  similarty: 0.5\n"))).toEqual([
      "org.yaml:9:15: claims.similarity must be greater than 0, got 0 — write a number above 0",
      'org.yaml:10:12: claims.timeout must be a number of seconds or a duration such as 90s, 10m or 1h, '
        + 'got "soon" — write e.g. 2h',
      'org.yaml:11:3: unknown key "similarty" in claims — did you mean "similarity"?',
    ]);
    expect(await problemsOf(claims("  similarity: 1.5\n  timeout: -5\n"))).toEqual([
      "org.yaml:9:15: claims.similarity must be at most 1, got 1.5 — write 1 or less",
      "org.yaml:10:12: claims.timeout must be greater than 0, got -5 — write a number above 0",
    ]);
  });

  it("refuses a claims section that is not a map", async () => {
    expect(await problemsOf(`${VALID}claims: 0.6\n`)).toEqual([
      "org.yaml:8:9: claims must be a map, got 0.6 — indent its keys below it: similarity, timeout",
    ]);
  });
});
