// state/agents/<agent>/ledger.json through its owner: read through the schema, a wrong shape named with its fix.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { readAgentLedgers, readLedger, writeLedger } from "../../../src/adapters/store/agent-ledger.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

describe("the verifier's ledger of an agent", () => {
  test("written and read back whole; a field a newer org wrote survives", async () => {
    state = makeTempDir("org-ledger-");
    const ledger = { best: { commit: "abc", metric: 0.5, runs: 2 }, lastVerified: "abc", runs: 3, newer: "kept" };
    await writeLedger(state, "r-1", ledger);
    expect(await readLedger(state, "r-1")).toEqual(ledger);
    expect(await readLedger(state, "r-2")).toBeUndefined();
  });

  test("a ledger of another shape is refused with what is wrong and the fix, and left as it was", async () => {
    state = makeTempDir("org-ledger-");
    const file = join(state, "agents", "r-1", "ledger.json");
    mkdirSync(join(state, "agents", "r-1"), { recursive: true });
    writeFileSync(file, '{"best":{"commit":"abc","metric":"low"},"lastVerified":null}\n');
    await expect(readLedger(state, "r-1")).rejects.toThrow(
      `${file} is not a verifier ledger (best.metric: Invalid input: expected number, received string)`
      + " — remove it, and the verifier measures the agent's baseline again",
    );
    expect(readFileSync(file, "utf8")).toBe('{"best":{"commit":"abc","metric":"low"},"lastVerified":null}\n');
    expect(await readAgentLedgers(state, ["r-1", "r-2"])).toEqual([undefined, undefined]);
  });
});
