// `org submit`'s verdict and `org confirm`'s report read through their owners' checks: one of another shape is an
// error naming the file, never a wait and never a cast.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { waitForConfirmation } from "../../../src/adapters/verifier/confirmation.js";
import { waitForVerdict } from "../../../src/adapters/verifier/verdict-file.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const CANCELLED = { id: "q-1", commit: "abc1234", description: "try", cancelled: "stop.max_cost reached" };
const REPORT = {
  commit: "abc1234", agent: "r-1", metric: "val_bpb", runs: [], mean: null, sd: null, sigma: 0.01,
  crashed: "run 1 exited 1 with no metric; log runs/x.log",
};

function put(folder: string, value: string): { paths: { state: string; daemon: string }; file: string } {
  state = makeTempDir("org-answers-");
  mkdirSync(join(state, folder));
  const file = join(state, folder, "q-1.json");
  writeFileSync(file, value);
  return { paths: { state, daemon: join(state, "daemon.json") }, file };
}

test("a verdict and a report as the verifier writes them are read back", async () => {
  expect(await waitForVerdict(put("verdicts", JSON.stringify(CANCELLED)).paths, "q-1")).toEqual(CANCELLED);
  removeDir(state!);
  // A report of no runs: its mean is NaN, which JSON writes as null.
  expect(await waitForConfirmation(put("confirmations", JSON.stringify(REPORT)).paths, "q-1")).toEqual(REPORT);
});

test("no answer and no daemon: the request stays queued, said so", async () => {
  state = makeTempDir("org-answers-");
  await expect(waitForVerdict({ state, daemon: join(state, "daemon.json") }, "q-1")).rejects.toThrow(
    "the org went down while your request waited; it stays queued and runs at the next `org up`",
  );
});

test.each([
  ["verdicts", waitForVerdict, JSON.stringify({ id: "q-1", outcome: { verdict: {} } }), "of another shape"],
  ["verdicts", waitForVerdict, '{"id": "q-1", "comm', "cut short or not JSON"],
  ["confirmations", waitForConfirmation, JSON.stringify({ ...REPORT, runs: "none" }), "of another shape"],
])("a damaged answer in %s is an error naming the file, left as it was", async (folder, wait, text, why) => {
  const { paths, file } = put(folder, text);
  await expect(wait(paths, "q-1"))
    .rejects.toThrow(`${file} is no answer the daemon wrote (${why}) — remove it, and ask again`);
  expect(readFileSync(file, "utf8")).toBe(text);
});
