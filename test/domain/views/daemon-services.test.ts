import { expect, test } from "vitest";
import { defineLoop, listServiceTicks, runServices, type Service } from "../../../src/daemon/index.js";
import { checkServices, readServiceTicks } from "../../../src/domain/views/service-ticks.js";

function fakeService(name: string, events: string[], fail: { start?: boolean; stop?: boolean } = {}): Service {
  return {
    name,
    start: async () => {
      events.push(`start ${name}`);
      if (fail.start) throw new Error(`${name} cannot start`);
    },
    stop: async () => {
      events.push(`stop ${name}`);
      if (fail.stop) throw new Error(`${name} cannot stop`);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("services start in table order and stop in reverse once the signal aborts", async () => {
  const events: string[] = [];
  const stopping = new AbortController();
  const run = runServices(["a", "b", "c"].map((name) => fakeService(name, events)), stopping.signal);
  await sleep(5);
  expect(events).toEqual(["start a", "start b", "start c"]);
  stopping.abort();
  await run;
  expect(events).toEqual(["start a", "start b", "start c", "stop c", "stop b", "stop a"]);
});

test("a stop that throws is reported and the services started before it still stop", async () => {
  const events: string[] = [];
  const reported: string[] = [];
  const stopping = new AbortController();
  stopping.abort();
  const services = [fakeService("a", events), fakeService("b", events, { stop: true }), fakeService("c", events)];
  await runServices(services, stopping.signal, (line) => reported.push(line));
  // Aborted before the first start: nothing starts, so nothing stops.
  expect(events).toEqual([]);
  const again = new AbortController();
  const run = runServices(services, again.signal, (line) => reported.push(line));
  await sleep(5);
  again.abort();
  await run;
  expect(events).toEqual(["start a", "start b", "start c", "stop c", "stop b", "stop a"]);
  expect(reported).toEqual(["b: stop failed: b cannot stop"]);
});

test("a start that throws ends the run: it and every service before it stop, "
  + "in reverse, and the error comes out", async () => {
  const events: string[] = [];
  const services = [
    fakeService("a", events), fakeService("b", events, { stop: true }), fakeService("c", events, { start: true }),
    fakeService("d", events),
  ];
  await expect(runServices(services, new AbortController().signal, () => undefined)).rejects.toThrow("c cannot start");
  expect(events).toEqual(["start a", "start b", "start c", "stop c", "stop b", "stop a"]);
});

test("a loop ticks at start, again each period and at once when woken; it records its last tick and lag", async () => {
  const ticks: number[] = [];
  let wakeUp = () => {};
  const loop = defineLoop({
    name: "loop",
    periodMs: 200,
    tick: async (now) => {
      ticks.push(now.getTime());
      // The first tick is slow: the second comes late against the period, and that lateness is the lag.
      if (ticks.length === 1) await sleep(100);
    },
    wake: (wake) => ((wakeUp = wake), () => (wakeUp = () => {})),
  });
  expect(listServiceTicks([loop])).toEqual([{ name: "loop", lastTickAt: null, lagMs: null }]);
  await loop.start();
  expect(ticks).toHaveLength(1);
  expect(loop.lastTick?.()).toMatchObject({ name: "loop", lagMs: 0 });
  await sleep(400);
  expect(ticks).toHaveLength(2);
  expect(loop.lastTick!().lagMs).toBeGreaterThanOrEqual(90);
  wakeUp();
  await sleep(20);
  expect(ticks).toHaveLength(3);
  expect(loop.lastTick!().lagMs).toBe(0);
  expect(Date.parse(loop.lastTick!().lastTickAt!)).toBe(ticks[2]);
  await loop.stop();
  await sleep(250);
  expect(ticks).toHaveLength(3);
});

test("a tick that throws is reported and the loop goes on; "
  + "stop waits for the tick in flight and closes after it", async () => {
  const events: string[] = [];
  let count = 0;
  const loop = defineLoop({
    name: "flaky",
    periodMs: 5,
    open: async () => void events.push("open"),
    tick: async () => {
      count++;
      if (count === 1) throw new Error("first tick failed");
      await sleep(10);
      events.push(`tick ${count}`);
    },
    fail: (error) => events.push(error.message),
    close: async () => void events.push("close"),
  });
  await loop.start();
  await sleep(8);
  await loop.stop();
  expect(events[0]).toBe("open");
  expect(events[1]).toBe("first tick failed");
  expect(events.at(-1)).toBe("close");
  expect(events.slice(2, -1)).toEqual(events.slice(2, -1).map((_, index) => `tick ${index + 2}`));
});

test("a loop that asks for it has run its first tick when its start resolves; "
  + "the others' first tick runs behind", async () => {
  const events: string[] = [];
  const slowTick = (name: string) => async () => {
    await sleep(30);
    events.push(`${name} ticked`);
  };
  const first = defineLoop({ name: "first", periodMs: 1000, tick: slowTick("first"), firstTickInStart: true });
  const behind = defineLoop({ name: "behind", periodMs: 1000, tick: slowTick("behind") });
  await first.start();
  await behind.start();
  events.push("both started");
  await behind.stop();
  await first.stop();
  expect(events).toEqual(["first ticked", "both started", "behind ticked"]);
});

test("org status reads the services' ticks from daemon.json: none before the first beat or from "
  + "a file that does not parse", async () => {
  const files = (text: string | undefined) => ({ readText: async () => text });
  const services = [
    { name: "verifier", lastTickAt: "2026-01-01T00:00:00.000Z", lagMs: 12 },
    { name: "notifier", lastTickAt: null, lagMs: null },
  ];
  const daemon = {
    pid: 1, startedAt: "2026-01-01T00:00:00.000Z", heartbeatAt: "2026-01-01T00:00:02.000Z",
    services: [...services, { name: 3 }],
  };
  expect(await readServiceTicks(files(JSON.stringify(daemon)), "daemon.json")).toEqual(services);
  expect(
    await readServiceTicks(files(JSON.stringify({ pid: null, startingAt: "2026-01-01T00:00:00.000Z" })), "daemon.json"),
  ).toEqual([]);
  expect(await readServiceTicks(files("{"), "daemon.json")).toEqual([]);
  expect(await readServiceTicks(files(undefined), "daemon.json")).toEqual([]);
});

test("org doctor's line per service: an event service, a loop on time, a late loop and a silent one", () => {
  const now = new Date("2026-01-07T10:10:00.000Z");
  expect(checkServices([
    { name: "notifier", lastTickAt: null, lagMs: null },
    { name: "verifier", lastTickAt: "2026-01-07T10:09:58.000Z", lagMs: 12 },
    { name: "usage", lastTickAt: "2026-01-07T10:09:40.000Z", lagMs: 15_000 },
    { name: "standups", lastTickAt: "2026-01-07T10:00:00.000Z", lagMs: 0 },
  ], now)).toEqual([
    { name: "daemon: notifier", status: "ok", detail: "running (no ticks: it acts on events)" },
    { name: "daemon: verifier", status: "ok", detail: "last tick 2s ago, lag 12 ms" },
    {
      name: "daemon: usage", status: "warn", detail: "last tick 20s ago, lag 15000 ms",
      fix: "the daemon is starved of CPU or a tick runs long: check the machine's load",
    },
    {
      name: "daemon: standups", status: "warn", detail: "last tick 10m ago, lag 0 ms",
      fix: "a tick hangs or the daemon is stuck: see the control pane (org attach), then `org down && org up`",
    },
  ]);
});
