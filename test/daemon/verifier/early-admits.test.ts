// A queued request's commits go into the verifier's store when the tick reads the queue; the request's own admit then
// takes the rest, and a refusal is told once, not fetched again.
import { expect, test } from "vitest";
import { EarlyAdmits } from "../../../src/daemon/verifier/early-admits.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";

const request = (id: string, kind: ExperimentRequest["kind"] = "candidate"): ExperimentRequest => ({
  id, agent: "a-1", commit: `${id}`.padEnd(40, "0"), description: id, kind, submittedAt: "2026-01-01T00:00:00.000Z",
});

function createPort(refuse?: string) {
  const calls: (string | undefined)[][] = [];
  return { calls, admit: async (commits: (string | undefined)[]) => (calls.push(commits), refuse) };
}

test("each queued request is admitted once, when first read; the org's own experiments are not", async () => {
  const port = createPort();
  const admits = new EarlyAdmits(port);
  const first = { ...request("a"), after: "b".repeat(40) };
  admits.start([first, request("s", "stack"), request("x", "ablate")]);
  admits.start([first]);
  expect(port.calls).toEqual([[first.commit, first.after]]);
  expect(await admits.admit(first, [first.commit, "c".repeat(40)])).toBeUndefined();
  expect(port.calls).toEqual([[first.commit, first.after], [first.commit, "c".repeat(40)]]);
});

test("a refused early admit is the request's answer: no second fetch, so no second incident", async () => {
  const why = "aaaaaaa could not be taken into the verifier's own object store";
  const port = createPort(why);
  const admits = new EarlyAdmits(port);
  const queued = request("a");
  admits.start([queued]);
  expect(await admits.admit(queued, [queued.commit])).toBe(why);
  expect(port.calls).toHaveLength(1);
});

test("a request no longer queued is forgotten; one never read early is admitted by its own call", async () => {
  const port = createPort();
  const admits = new EarlyAdmits(port);
  const gone = request("g");
  admits.start([gone]);
  admits.start([]);
  expect(await admits.admit(gone, [gone.commit])).toBeUndefined();
  // Forgotten: the request's own call asked the port again.
  expect(port.calls).toEqual([[gone.commit, undefined], [gone.commit]]);
});

test("an early admit that failed (a full disk) is raised by the request's own admit, not swallowed", async () => {
  let calls = 0;
  const admits = new EarlyAdmits({ admit: async () => { calls++; throw new Error("no space left on device"); } });
  const queued = request("a");
  admits.start([queued]);
  await expect(admits.admit(queued, [queued.commit])).rejects.toThrow("no space left on device");
  expect(calls).toBe(2);
});
