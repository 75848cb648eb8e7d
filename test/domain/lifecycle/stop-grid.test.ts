import { expect, test } from "vitest";
import { stopGrid } from "../../../src/domain/lifecycle/stop-grid.js";
import type { PaneInfo, PanesPort } from "../../../src/domain/ports.js";
import type { World } from "../../../src/domain/world.js";

const pane = (id: string, pid: number, agent?: string, dead = false): PaneInfo =>
  ({ id, pid, dead, deadStatus: null, options: agent ? { "@org_agent": agent } : {} });

function fakeGrid(panes: PaneInfo[], running = true) {
  const calls: string[] = [];
  const tmux = {
    isRunning: async () => running,
    listPanes: async () => panes,
    killServer: async () => void calls.push("kill-server"),
  } as unknown as PanesPort;
  const world = {
    processes: {
      isAlive: (pid: number) => pid !== -555,
      killGroup: async (pgid: number) => void calls.push(`kill ${pgid}`),
    },
  } as unknown as World;
  return { calls, tmux, world };
}

test("without org.json the daemon is the pane with no agent label: stopped first, "
  + "then agents and recorded pids, then the server", async () => {
  const { calls, tmux, world } = fakeGrid([pane("%0", 10), pane("%1", 11, "a"), pane("%2", 12, "b", true)]);
  const steps: string[] = [];
  const stopped = await stopGrid(world, tmux, { pids: [11, 999, 555], onStep: (step) => steps.push(step) });
  expect(stopped).toEqual({ wasRunning: true, stoppedGroups: 2 });
  expect(calls[0]).toBe("kill 10");
  expect(calls.slice(1, 3).sort()).toEqual(["kill 11", "kill 999"]);
  expect(calls[3]).toBe("kill-server");
  expect(steps).toEqual(["stopping the daemon", "stopping 2 agents", "ending the server"]);
});

test("with org.json its control pane is the daemon; a server already gone still has its socket removed", async () => {
  const running = fakeGrid([pane("%0", 10, "a"), pane("%5", 20)]);
  await stopGrid(running.world, running.tmux, { controlPaneId: "%0" });
  expect(running.calls).toEqual(["kill 10", "kill 20", "kill-server"]);
  const gone = fakeGrid([], false);
  expect(await stopGrid(gone.world, gone.tmux, { pids: [555] })).toEqual({ wasRunning: false, stoppedGroups: 0 });
  expect(gone.calls).toEqual(["kill-server"]);
});
