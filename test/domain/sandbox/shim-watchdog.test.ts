// The shim's watchdog (a request not taken in 30 s) against a caller that reads the shim's output to its end, as
// `$(org …)` and every agent CLI's tool runner do: the real shim script, the real adapter, no daemon.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { renderOrgShim } from "../../../src/domain/sandbox/shim.js";
import { runOutboxCommand, takeOutboxRequests } from "../../../src/adapters/store/outbox.js";
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

const outputsOf = (pid: number) => [1, 2].map((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`));

// Its TERM is lost when it comes before the watchdog's subshell has replaced the shim's trap (a quick command on a
// busy machine): it then sleeps on, and must not hold the output the caller reads to its end.
test("the watchdog and its sleep hold none of the caller's outputs", async () => {
  dir = makeTempDir("org-watchdog-");
  const outbox = join(dir, "outbox");
  mkdirSync(outbox);
  writeFileSync(join(dir, "org"), renderOrgShim(["/bin/false"]), { mode: 0o755 });
  const shim = spawn(join(dir, "org"), ["status"], { cwd: dir, env: { ...process.env, ORG_OUTBOX: outbox } });
  const ended = new Promise((resolve) => shim.on("close", resolve));
  const caller = outputsOf(shim.pid!);
  // The watchdog is the shim's child whose own child sleeps (the readers, cat, have none).
  const watchdog = await pollUntil(() => {
    const parents = readParents();
    const sleeper = [...parents].find(([pid, parent]) =>
      parents.get(parent) === shim.pid && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sleep");
    return sleeper && [sleeper[1], sleeper[0]];
  }, { what: "the watchdog's sleep" });
  for (const pid of watchdog) expect(outputsOf(pid).filter((path) => caller.includes(path))).toEqual([]);
  const [entry] = await takeOutboxRequests(outbox);
  await runOutboxCommand(entry!, ["true"], { cwd: dir, env: {}, children, agent: "a-1" });
  expect(await ended).toBe(0);
});
