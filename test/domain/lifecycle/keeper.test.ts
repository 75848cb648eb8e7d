import { describe, expect, test } from "vitest";
import {
  checkKeeper, decideDaemonRestart, describeDaemonExit, startKeeperRecord, type KeeperRecord,
} from "../../../src/domain/lifecycle/keeper-rules.js";
import { formatKeeperLine } from "../../../src/ui/keeper-line.js";

const record: KeeperRecord = {
  pid: 7, startedAt: "2026-01-01T00:00:00.000Z", upAt: "2026-01-01T00:00:00.000Z", daemonRestarts: 2, keeperRestarts: 0,
  quickDeaths: 1,
};

describe("the keeper's decisions", () => {
  test("a daemon killed from outside comes back at once, even one killed soon after its start", () => {
    expect(decideDaemonRestart({ livedMs: 3_600_000, quickDeaths: 4, exit: "signal SIGKILL" })).toEqual({
      kind: "now",
      quickDeaths: 0,
      reason: "it ran 1h (signal SIGKILL)",
    });
    expect(decideDaemonRestart({ livedMs: 5000, quickDeaths: 0, exit: "signal SIGKILL" })).toEqual({
      kind: "now",
      quickDeaths: 1,
      reason: "it ran 5s (signal SIGKILL)",
    });
  });

  test("a daemon that keeps dying at once backs off: 2 s, 4 s, … never over a minute", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((quickDeaths) =>
      decideDaemonRestart({ livedMs: 100, quickDeaths, exit: "exit 1" }));
    expect(delays.map((decision) => (decision.kind === "back-off" ? decision.delayMs : 0))).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(delays[0]).toMatchObject({
      kind: "back-off",
      quickDeaths: 2,
      reason: "it ran 0.1s (exit 1); 2 daemons in a row died within 30s, so the next starts in 2s",
    });
  });

  test("the pane's end, as log.md says it", () => {
    expect(describeDaemonExit({ deadStatus: null, deadSignal: "SIGKILL" })).toBe("signal SIGKILL");
    expect(describeDaemonExit({ deadStatus: 1, deadSignal: null })).toBe("exit 1");
    expect(describeDaemonExit({ deadStatus: null })).toBe("exit status unknown");
  });

  test("a keeper that replaces a dead one of the same org up carries its counts on; "
    + "a new org up starts from none", () => {
    const now = new Date("2026-01-01T01:00:00.000Z");
    expect(startKeeperRecord(record, { pid: 8, now, upAt: record.upAt })).toEqual({
      record: { ...record, pid: 8, startedAt: now.toISOString(), keeperRestarts: 1 },
      replaced: 7,
    });
    expect(startKeeperRecord(record, { pid: 8, now, upAt: "2026-01-02T00:00:00.000Z" })).toEqual({
      record: {
        pid: 8, startedAt: now.toISOString(), upAt: "2026-01-02T00:00:00.000Z", daemonRestarts: 0, keeperRestarts: 0,
        quickDeaths: 0,
      },
    });
  });

  test("org status and org doctor say who keeps the daemon, and how often it had to", () => {
    const restarted = {
      ...record,
      lastRestart: { at: "2026-01-01T00:05:00.000Z", exit: "signal SIGKILL", livedMs: 1000 },
    };
    expect(formatKeeperLine(restarted, true)).toBe("daemon: kept by its keeper (pid 7); "
      + "daemon restarted (signal SIGKILL), 2 times, last at 2026-01-01T00:05:00.000Z");
    expect(formatKeeperLine({ ...restarted, waitingUntil: "2026-01-01T00:05:04.000Z" }, true)).toBe(
      "daemon: kept by its keeper (pid 7); daemon restarted (signal SIGKILL), 2 times, "
        + "last at 2026-01-01T00:05:00.000Z; next start 2026-01-01T00:05:04.000Z (it keeps dying at once)",
    );
    expect(formatKeeperLine(undefined, false)).toBeUndefined();
    expect(formatKeeperLine({ ...record, daemonRestarts: 0 }, false)).toBe(
      "daemon: its keeper is not running (`org up` starts it)",
    );
    expect(checkKeeper(record, 7)).toEqual({
      name: "daemon keeper",
      status: "ok",
      detail: "running (pid 7); restarted the daemon 2 times since org up",
    });
    expect(checkKeeper(undefined, undefined)).toEqual({
      name: "daemon keeper", status: "warn", detail: "not running: a daemon that dies stays dead until `org up`",
      fix: "org up (starts the keeper; touches nothing that runs)",
    });
  });
});
