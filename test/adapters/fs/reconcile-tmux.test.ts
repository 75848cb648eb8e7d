import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigWatcher } from "../../../src/adapters/fs/config-watcher.js";
import type { RunResult, Runner } from "../../../src/adapters/process.js";
import { Tmux } from "../../../src/adapters/tmux/tmux.js";
import { pollUntil } from "../../helpers/poll.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

/**
 * Records every argv, and the script a call sends on stdin after it; answers list-panes with two panes, %1 active, or
 * (by label) with the new panes %7 and %8.
 */
function recordingRunner(): Runner & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async run(argv, options): Promise<RunResult> {
      calls.push(options?.input === undefined ? argv : [...argv, String(options.input)]);
      // Panes by label (list-panes -s, tab-separated: id, pid, dead,
      // status, signal, time, pipe, @org_agent, …); else by window.
      const pane = (id: string, agent: string) => `${id}\t100\t0\t\t\t0\t1\t${agent}\t\t\t\n`;
      const byLabel = argv.includes("-s");
      const stdout = byLabel
        ? pane("%0", "") + pane("%1", "a-1") + pane("%7", "a-3") + pane("%8", "a-4")
        : argv.includes("list-panes")
          ? "%0 0\n%1 1\n"
          : "";
      return { argv, exitCode: 0, signal: null, stdout, stderr: "", timedOut: false, durationMs: 1 };
    },
  };
}

const PREFIX = ["tmux", "-L", "sock", "-f", "/dev/null"];

describe("tmux adapter: reload's pane commands", () => {
  test("addPanes splits empty panes after the last one, labels each (the daemon logs agent panes), re-tiles, " +
    "starts each program at its final size, and gives focus back", async () => {
    const runner = recordingRunner();
    const ids = await new Tmux(runner, "sock", "org-x").addPanes([
      {
        argv: ["node", "org.js", "supervise", "a-3"],
        cwd: "/w/a-3",
        options: { "@org_agent": "a-3" },
        logFile: "/s/a-3/pane.log",
      },
      {
        argv: ["node", "org.js", "supervise", "a-4"],
        cwd: "/w/a-4",
        options: { "@org_agent": "a-4" },
        logFile: "/s/a-4/pane's.log",
      },
    ]);
    expect(ids).toEqual(["%7", "%8"]);
    expect(runner.calls).toEqual([
      [...PREFIX, "list-panes", "-t", "org-x:org", "-F", "#{pane_id} #{pane_active}"],
      // Empty panes first, tiled as each is split; then each program at its pane's final size, by index after %0, %1.
      [...PREFIX, "start-server", ";", "source-file", "-", [
        "select-pane -t %1",
        "split-window -t org-x:org ''",
        "set-option -p '@org_agent' a-3",
        "select-layout -t org-x:org tiled",
        "split-window -t org-x:org ''",
        "set-option -p '@org_agent' a-4",
        "select-layout -t org-x:org tiled",
        "respawn-pane -t org-x:org.2 -c /w/a-3 node org.js supervise a-3",
        "respawn-pane -t org-x:org.3 -c /w/a-4 node org.js supervise a-4",
        "select-pane -t %1",
        "",
      ].join("\n")],
      [...PREFIX, "list-panes", "-s", "-t", "=org-x", "-F", expect.stringMatching(/^#\{pane_id\}\t#\{pane_pid\}\t/)],
    ]);
  });

  test("killPanes, setPaneOptions and retile are one tmux call each; nothing to do is no call", async () => {
    const runner = recordingRunner();
    const tmux = new Tmux(runner, "sock", "org-x");
    await tmux.killPanes([]);
    await tmux.setPaneOptions("%3", {});
    expect(runner.calls).toEqual([]);
    await tmux.killPanes(["%2", "%3"]);
    await tmux.setPaneOptions("%3", { "@org_gpu": "1", "@org_status": "starting" });
    await tmux.retile();
    expect(runner.calls).toEqual([
      [...PREFIX, "kill-pane", "-t", "%2", ";", "kill-pane", "-t", "%3"],
      [
        ...PREFIX,
        "set-option",
        "-p",
        "-t",
        "%3",
        "@org_gpu",
        "1",
        ";",
        "set-option",
        "-p",
        "-t",
        "%3",
        "@org_status",
        "starting",
      ],
      [...PREFIX, "select-layout", "-t", "org-x:org", "tiled"],
    ]);
  });
});

describe("config watcher", () => {
  let dir: string | undefined;
  let watcher: ConfigWatcher | undefined;
  afterEach(() => {
    watcher?.close();
    if (dir) removeDir(dir);
    dir = undefined;
  });

  test("one call per burst of saves to a watched file, saves by rename included; other files are ignored", async () => {
    dir = makeTempDir("org-watch-");
    mkdirSync(join(dir, "prompts"));
    const files = [join(dir, "org.yaml"), join(dir, "prompts", "a.md")];
    for (const file of files) writeFileSync(file, "x\n");
    let calls = 0;
    watcher = new ConfigWatcher(() => calls++, 100);
    watcher.watch(files);
    // Proving a non-event takes waiting past the debounce period.
    const quiet = () => {
      const until = Date.now() + 300;
      return pollUntil(() => Date.now() > until);
    };
    writeFileSync(join(dir, "notes.txt"), "not ours\n");
    writeFileSync(join(dir, "prompts", "b.md"), "not a prompt of the org\n");
    await quiet();
    expect(calls).toBe(0);
    writeFileSync(files[0]!, "y\n");
    writeFileSync(files[0]!, "z\n");
    writeFileSync(join(dir, "prompts", ".a.md.tmp"), "new\n");
    renameSync(join(dir, "prompts", ".a.md.tmp"), files[1]!);
    await pollUntil(() => calls > 0, { what: "the debounced change" });
    await quiet();
    expect(calls).toBe(1);
    rmSync(files[1]!);
    await pollUntil(() => calls === 2, { what: "the deleted prompt" });
  });
});
