// A sandboxed agent's `org` (the shim) always ends, for a caller that reads its output to the end as `$(org …)` and
// every agent CLI's tool runner do: the real shim script, the real adapter, no daemon.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { renderOrgShim } from "../../../src/domain/sandbox/shim.js";
import {
  closeOutboxRequest, releaseOutboxShim, runOutboxCommand, takeOutboxRequests,
} from "../../../src/adapters/store/outbox.js";
import { makeTempDir } from "../../helpers/temp-repo.js";
import { pollUntil } from "../../helpers/poll.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const children = { announce: () => ({ env: {}, started: () => undefined, ended: () => undefined }) };

/** Each process's parent, from /proc: a process gone meanwhile is left out. */
function readParents(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone since the listing.
    }
  }
  return parents;
}

/** The shim as an agent's `org` in a fresh outbox: its output and exit status once it and all it started let go. */
function startShim(args: string[], env: Record<string, string> = {}) {
  dir = makeTempDir("org-shim-");
  const outbox = join(dir, "outbox");
  mkdirSync(outbox);
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  const shim = spawn(join(dir, "org"), args, { cwd: dir, env: { ...process.env, ORG_OUTBOX: outbox, ...env } });
  let [stdout, stderr] = ["", ""];
  shim.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  shim.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise((resolve) => shim.on("close", (code) => resolve({ code, stdout, stderr })));
  return { shim, outbox, ended };
}

const outputsOf = (pid: number) => [1, 2].map((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`));

// Its TERM is lost when it comes before the watchdog's subshell has replaced the shim's trap (a quick command on a
// busy machine): it then sleeps on, and must not hold the output the caller reads to its end.
test("the watchdog and its sleep hold none of the caller's outputs", async () => {
  const { shim, outbox, ended } = startShim(["status"]);
  // The watchdog is the shim's child whose own child sleeps (the readers, cat, have none).
  const watchdog = await pollUntil(() => {
    const parents = readParents();
    const sleeper = [...parents].find(([pid, parent]) =>
      parents.get(parent) === shim.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sleep");
    return sleeper && [sleeper[1], sleeper[0]];
  }, { what: "the watchdog's sleep" });
  // Read once it has started the watchdog and only waits: before, a redirection of its own (2>/dev/null) may hold them.
  const caller = outputsOf(shim.pid!);
  for (const pid of watchdog) expect(outputsOf(pid).filter((path) => caller.includes(path))).toEqual([]);
  const [entry] = await takeOutboxRequests(outbox);
  await runOutboxCommand(entry!, ["true"], { cwd: dir!, env: {}, children, agent: "a-1" });
  expect(await ended).toEqual({ code: 0, stdout: "", stderr: "" });
  // Its `.live` handle closed, as the broker closes it: left to the collector, node warns in the next file's process.
  await closeOutboxRequest(entry!, { files: false });
});

// A warm worker handed the request opens its outputs itself: one that dies first (killed, out of memory) leaves the
// shim's readers waiting for a writer, or a polled shim for a status, until the daemon lets them go.
test.each([["its FIFOs", {}], ["polled", { ORG_OUTBOX_POLL: "1" }]])("a request taken whose outputs nothing opened "
  + "ends its shim (%s) once the daemon releases it: no exit status, said", async (_, env) => {
  const { outbox, ended } = startShim(["submit"], env);
  const entry = await pollUntil(() => takeOutboxRequests(outbox).then((taken) => taken[0]), {
    what: "the shim's request",
  });
  await releaseOutboxShim(entry);
  const said = "org: the command ended without an exit status (the daemon stopped?) — see `org status`\n";
  expect(await ended).toEqual({ code: 70, stdout: "", stderr: said });
  await closeOutboxRequest(entry, { files: false });
  // Once the shim has removed its files, a release leaves nothing behind.
  await pollUntil(() => readdirSync(outbox).length === 0, { what: "the request's files to go" });
  await releaseOutboxShim(entry);
  expect(readdirSync(outbox)).toEqual([]);
});
