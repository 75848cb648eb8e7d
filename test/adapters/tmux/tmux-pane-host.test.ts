import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { TmuxPaneHost } from "../../../src/adapters/tmux/pane-host.js";
import type { TmuxControl } from "../../../src/adapters/tmux/control.js";
import type { PaneInfo } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";

// A real zombie: the background child of a shell that then execs a sleep, which never reaps it. The child outlives
// the exec by a second: one that ended first could be reaped by the shell itself (seen under load).
async function startZombie(): Promise<{ zombie: number; parent: ChildProcess }> {
  const parent = spawn("sh", ["-c", "sleep 1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
  const line = await new Promise<string>((resolve) =>
    parent.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString())),
  );
  return { zombie: Number(line.trim()), parent };
}

describe("the tmux pane host with a program tmux has not reaped", () => {
  test("a dead pane whose program is a zombie makes tmux reap (run-shell), " +
    "once; its status is then awaited, not made up", async () => {
    const { zombie, parent } = await startZombie();
    try {
      await pollUntil(() => / Z /.test(readFileSync(`/proc/${zombie}/stat`, "utf8")), { what: "the zombie" });
      const sent: string[][][] = [];
      const control = {
        run: async (commands: string[][]) => (
          sent.push(commands),
          { blocks: commands.map((argv) => (argv[0] === "list-panes" ? `%7\t${zombie}\t1\t\t\ta-1` : "")) }
        ),
      } as unknown as TmuxControl;
      const parse = (line: string): PaneInfo => {
        const [id, pid, dead, status, signal, agent] = line.split("\t");
        return {
          id: id!,
          pid: Number(pid),
          dead: dead === "1",
          deadStatus: status ? Number(status) : null,
          deadSignal: signal || null,
          deadAt: null,
          piped: true,
          options: { "@org_agent": agent! },
        };
      };
      const host = new TmuxPaneHost(control, "grid", "FORMAT", parse, "sock");
      expect(await host.listAgentPanes()).toEqual([
        {
          agent: "a-1",
          id: "%7",
          pid: zombie,
          dead: false,
          exitCode: null,
          exitSignal: null,
          exitedAt: null,
          logged: true,
        },
      ]);
      expect(await host.listAgentPanes()).toMatchObject([{ dead: false }]);
      const pokes = sent.filter((commands) => commands.some((argv) => argv[0] === "run-shell"));
      expect(pokes).toEqual([[["run-shell", "-b", "true"]]]);
    } finally {
      parent.kill();
    }
  });
});
