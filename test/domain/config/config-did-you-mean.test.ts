import { describe, expect, it } from "vitest";
import { findClosest, measureDistance, suggestFix } from "../../../src/domain/config/did-you-mean.js";
import { VALID, problemsOf } from "../../fixtures/configs/fake-probe.js";

describe("did-you-mean", () => {
  it("measures edits, counting a swap of neighbours as one", () => {
    expect(measureDistance("rols", "roles")).toBe(1);
    expect(measureDistance("nmae", "name")).toBe(1);
    expect(measureDistance("kitten", "sitting")).toBe(3);
    expect(measureDistance("", "abc")).toBe(3);
  });

  it("suggests only plausible typos, preferring the closest and then the first", () => {
    expect(findClosest("rols", ["name", "roles", "runtimes"])).toBe("roles");
    expect(findClosest("Roles", ["roles"])).toBe("roles");
    expect(findClosest("runtme", ["runtimes", "runtime"])).toBe("runtime");
    expect(findClosest("foo", ["gpu", "gpus"])).toBeUndefined();
    expect(findClosest("ab", ["ac", "ad"])).toBe("ac");
    expect(findClosest("roles", ["roles"])).toBeUndefined();
  });

  it("falls back to the caller's advice", () => {
    expect(suggestFix("supervisr", ["supervisor"], "remove it")).toBe('did you mean "supervisor"?');
    expect(suggestFix("zzz", ["supervisor"], "remove it")).toBe("remove it");
  });
});

describe("unknown keys in org.yaml", () => {
  it("a misspelled top-level key, without a second complaint about the key it was meant to be", async () => {
    expect(await problemsOf(VALID.replace("roles:", "rols:"))).toEqual([
      'org.yaml:4:1: unknown key "rols" — did you mean "roles"?',
    ]);
  });

  it("a misspelled key inside a role and inside a runtime", async () => {
    const text = VALID.replace("    runtime: mybot", "    runtime: mybot\n    cont: 2").replace(
      "    command:",
      "    comand:",
    );
    expect(await problemsOf(text)).toEqual([
      'org.yaml:3:5: unknown key "comand" in runtimes.mybot — did you mean "command"?',
      'org.yaml:8:5: unknown key "cont" in roles.researcher — did you mean "count"?',
    ]);
  });

  it("a key that resembles nothing lists the allowed keys", async () => {
    expect(await problemsOf(`${VALID}    model: opus\n`)).toEqual([
      'org.yaml:8:5: unknown key "model" in roles.researcher — remove it; the keys allowed in roles.researcher are '
        + 'prompt, runtime, count, gpu, edits, kickoff, reports_to, talks_to',
    ]);
  });

  it("a misspelled key in a nested section", async () => {
    const text = `${VALID}verify:\n  command: [python, train.py]\n  metric: {name: loss, patern: 'loss: (.*)'}\n`;
    expect(await problemsOf(text)).toEqual([
      'org.yaml:10:24: unknown key "patern" in verify.metric — did you mean "pattern"?',
    ]);
  });
});
