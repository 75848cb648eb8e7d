import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { processRunner, type Runner } from "../../../src/adapters/process.js";
import { Tmux } from "../../../src/adapters/tmux/tmux.js";
import type { PaneSpec } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let dir: string | undefined;
let socket: string | undefined;
afterEach(async () => {
  if (socket) await new Tmux(processRunner, socket, "org-script").killServer();
  if (dir) removeDir(dir);
  dir = socket = undefined;
});

// Every word tmux's parser could read otherwise: quotes, $, ~, #, ;, braces, % and spaces.
const TRICKY = `it's "quoted" $HOME ~ #not-a-comment ; {braces} %if 100% a  b`;

/** A grid whose agent panes each write their $VALUE and their argv to a file; the tmux processes it took, counted. */
async function startGrid(values: string[]): Promise<{ files: string[]; spawns: number }> {
  dir = makeTempDir("org-grid-script-");
  socket = `org-test-script-${process.pid}-${values.length}`;
  let spawns = 0;
  const counting: Runner = {
    run: (argv, options) => ((spawns += argv[0] === "tmux" ? 1 : 0), processRunner.run(argv, options)),
  };
  const grid = new Tmux(counting, socket, "org-script");
  const files = values.map((_, index) => join(dir!, `out-${index}`));
  const panes: PaneSpec[] = [
    { argv: ["sleep", "60"], cwd: dir, options: {}, logFile: join(dir, "daemon.log") },
    ...values.map((value, index) => ({
      argv: [
        "sh",
        "-c",
        'printf "%s|%s" "$VALUE" "$1" > "$0.tmp" && mv "$0.tmp" "$0"; sleep 60',
        files[index]!,
        TRICKY,
      ],
      cwd: dir!,
      env: { VALUE: value, [`ONLY_${index}`]: "x".repeat(3000) },
      options: { "@org_agent": `a-${index}` },
      logFile: join(dir!, `pane-${index}.log`),
    })),
  ];
  await grid.createGrid(panes, { width: 200, height: 60 });
  return { files, spawns };
}

async function readOut(file: string): Promise<string> {
  await pollUntil(() => existsSync(file), { what: `${file} written by its pane` });
  return readFileSync(file, "utf8");
}

test("a grid over tmux's 16 KB limit is one tmux process, and every argument arrives as it was", async () => {
  const values = Array.from({ length: 8 }, (_, index) => `${TRICKY} ${index}`);
  const { files, spawns } = await startGrid(values);
  // Eight panes of 3 KB each: as argv, three calls; read from stdin, one, which lists the panes too.
  expect(spawns).toBe(1);
  for (const [index, file] of files.entries()) expect(await readOut(file)).toBe(`${values[index]}|${TRICKY}`);
});

test("a value with a newline, which tmux's parser cannot quote, still arrives whole", async () => {
  const values = ["first line\nsecond line", TRICKY];
  const { files } = await startGrid(values);
  for (const [index, file] of files.entries()) expect(await readOut(file)).toBe(`${values[index]}|${TRICKY}`);
});

test("each agent's program starts at its pane's final size: the splits after it never resize it", async () => {
  dir = makeTempDir("org-grid-size-");
  socket = `org-test-size-${process.pid}`;
  const grid = new Tmux(processRunner, socket, "org-script");
  const files = Array.from({ length: 6 }, (_, index) => join(dir!, `size-${index}`));
  // The size the program saw as it started, and whether a resize (SIGWINCH) reached it within the next second.
  const report = 'trap "echo winch >> $0" WINCH; stty size > "$0"; sleep 1; echo done >> "$0"; sleep 60';
  await grid.createGrid([
    { argv: ["sleep", "60"], cwd: dir, options: {}, logFile: join(dir, "daemon.log") },
    ...files.map((file, index) => ({
      argv: ["sh", "-c", report, file], cwd: dir!, options: { "@org_agent": `a-${index}` }, logFile: `${file}.log`,
    })),
  ], { width: 200, height: 60 });
  const format = "#{@org_agent} #{pane_height} #{pane_width}";
  const listed = execFileSync("tmux", ["-L", socket, "list-panes", "-t", "org-script", "-F", format], {
    encoding: "utf8",
  });
  const sizes = new Map(listed.trim().split("\n").map((line) => {
    const [agent, height, width] = line.split(" ");
    return [agent, `${height} ${width}`];
  }));
  for (const [index, file] of files.entries()) {
    await pollUntil(() => existsSync(file) && readFileSync(file, "utf8").includes("done"), { what: `${file} done` });
    expect(readFileSync(file, "utf8")).toBe(`${sizes.get(`a-${index}`)}\ndone\n`);
  }
});
