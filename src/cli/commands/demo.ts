import { basename, relative } from "node:path";
import { prepareDemoRepo, readGridMode } from "../../flows/prepare-demo.js";
import type { Io } from "../io.js";

type DemoOptions = { root: string; attach: boolean; tmux?: boolean };

/**
 * `org demo`: create the toy research repo org.yaml points at (first run only), then `org up` (passed in: no
 * command imports another).
 */
export async function runDemo(
  opts: DemoOptions, io: Io, runUp: (opts: DemoOptions, io: Io) => Promise<number>,
): Promise<number> {
  const { repo, created } = await prepareDemoRepo(opts.root);
  if (created) io.out(`created the demo research repo in ${repo} (train.mjs is mutable, prepare.mjs is protected)`);
  const code = await runUp(opts, io);
  if (code === 0) io.out(howToWatch(await readGridMode(opts.root), orgCommand()));
  return code;
}

/** What a person types next, for the grid the demo got: tmux, or node-pty when tmux is missing or --no-tmux. */
function howToWatch(mode: "tmux" | "pty", org: string): string {
  const watch = mode === "tmux"
    ? `watch it: ${org} attach   (the tmux grid; Ctrl-b d detaches)   or: ${org} watch   (a dashboard; q quits)`
    : `watch it: ${org} watch   (no tmux: the panes run in node-pty; q quits, the org keeps running)`;
  return `${watch}\nresults:  ${org} results   (baselines and keep/discard rows within a minute)`
    + `\nstop it:  ${org} down`;
}

// From a clone `npm start` runs bin/org.js, which is not on PATH: show the command that works from here.
function orgCommand(): string {
  const script = process.argv[1] ?? "";
  return basename(script) === "org.js" ? `node ${relative(process.cwd(), script) || script}` : "org";
}
