import { basename, relative, resolve } from "node:path";
import { readAndLoadConfig, readRepoSetting } from "../../adapters/store/config-file.js";
import { createDemoRepo } from "../../adapters/git/demo-repo.js";
import { readRecord } from "../../adapters/store/org-record.js";
import type { Io } from "../io.js";

type DemoOptions = { root: string; attach: boolean; tmux?: boolean };

/** `org demo`: create the toy research repo org.yaml points at (first run only), then `org up` (passed in: no command imports another). */
export async function runDemo(opts: DemoOptions, io: Io, runUp: (opts: DemoOptions, io: Io) => Promise<number>): Promise<number> {
  const repo = await demoRepoPath(opts.root);
  const { created } = await createDemoRepo(repo);
  if (created) io.out(`created the demo research repo in ${repo} (train.mjs is mutable, prepare.mjs is protected)`);
  const code = await runUp(opts, io);
  if (code === 0) io.out(howToWatch((await readRecord(opts.root)).mode ?? "tmux", orgCommand()));
  return code;
}

/** What a person types next, for the grid the demo got: tmux, or node-pty when tmux is missing or --no-tmux. */
function howToWatch(mode: "tmux" | "pty", org: string): string {
  const watch = mode === "tmux" ? `watch it: ${org} attach   (the tmux grid; Ctrl-b d detaches)   or: ${org} watch   (a dashboard; q quits)` : `watch it: ${org} watch   (no tmux: the panes run in node-pty; q quits, the org keeps running)`;
  return `${watch}\nresults:  ${org} results   (baselines and keep/discard rows within a minute)\nstop it:  ${org} down`;
}

// From a clone `npm start` runs bin/org.js, which is not on PATH: show the command that works from here.
function orgCommand(): string {
  const script = process.argv[1] ?? "";
  return basename(script) === "org.js" ? `node ${relative(process.cwd(), script) || script}` : "org";
}

// Read org.yaml's repo before validation: validation itself fails until the repo exists.
async function demoRepoPath(root: string): Promise<string> {
  const read = await readAndLoadConfig({ cwd: root });
  if ("loaded" in read) return read.loaded.repoDir;
  return resolve(root, (await readRepoSetting(root)) ?? ".demo/research");
}
