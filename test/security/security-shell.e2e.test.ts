import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { tmuxSocket } from "../../src/domain/paths.js";
import { ORG_BIN, runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { createRepo, git, makeTempDir, removeDir } from "../helpers/temp-repo.js";
import { bin, PROMPT, teardownOrg, tmux } from "../helpers/test-org/index.js";

// Every shell metacharacter that matters, in one string: if any shell ever sees it, a PWNED file appears.
const EVIL = "$(touch PWNED) `touch PWNED`; touch PWNED && touch PWNED | touch PWNED 'q' \"dq\" \\ * ~ # %s";

function findPwned(dir: string, depth = 6): string[] {
  if (depth < 0 || !existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === "PWNED") return [path];
    return entry.isDirectory() && !entry.isSymbolicLink() && entry.name !== ".git" && entry.name !== "node_modules"
      ? findPwned(path, depth - 1)
      : [];
  });
}

type ArgvLine = { argv: string[]; env: Record<string, string | null>; cwd: string };
// The file exists before its first line is whole: only the lines a newline ends are read.
const readArgvLines = (file: string): ArgvLine[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .slice(0, -1)
        .map((line) => JSON.parse(line) as ArgvLine)
    : [];

let outer: string | undefined;
let org: { dir: string; socket: string } | undefined;
afterEach(() => {
  teardownOrg(org);
  if (outer) removeDir(outer);
  org = undefined;
  outer = undefined;
});

describe("no shell ever interprets user data", () => {
  test("metacharacters in the org's folder, prompt path, share, command, " +
    "env, kickoff and verify arrive verbatim; no PWNED anywhere", async () => {
    outer = makeTempDir();
    // The org's own folder has a hostile name: it is in every path tmux, git and the panes see.
    const root = join(outer, "org $(touch PWNED) `touch PWNED`; x");
    mkdirSync(root);
    const name = `sh${process.pid}`;
    // The agent writes its argv beside the org, in a folder the sandbox (whose /tmp is private) is told it may write.
    const argvDir = join(outer, "argv");
    mkdirSync(argvDir);
    const argvFile = join(argvDir, "argv.jsonl");
    const prompt = "prompts/$(touch PWNED);`x`.md";
    const share = "data $(touch PWNED);`x`";
    const yaml = `name: ${name}
gpus: none
share: [${JSON.stringify(share)}]
runtimes:
  printer:
    command: [${JSON.stringify(bin("print-argv"))}, "{kickoff}", ${JSON.stringify(EVIL)}, "{prompt_file}", "{worktree}"]
    env: { HOSTILE_ENV: ${JSON.stringify(EVIL)}, PRINT_ARGV_FILE: ${JSON.stringify(argvFile)}, PRINT_ARGV_SLEEP: "1" }
roles:
  researcher:
    { prompt: ${JSON.stringify(prompt)}, runtime: printer, kickoff: ${JSON.stringify(EVIL)}, edits: ["train.py"] }
verify:
  command: [${JSON.stringify(bin("print-argv"))}, ${JSON.stringify(EVIL)}]
  protected: [${JSON.stringify("prepare.py")}]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
sandbox: { write: [${JSON.stringify(argvDir)}] }
`;
    createRepo(
      {
        "org.yaml": yaml,
        [prompt]: PROMPT,
        "train.py": "print(1)\n",
        "prepare.py": "# fixed\n",
        ".gitignore": "data */\nstate/\nworktrees/\n",
      },
      root,
    );
    mkdirSync(join(root, share));
    org = { dir: root, socket: tmuxSocket(name, root) };
    const up = runOrg(["up"], { cwd: root });
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);

    const started = await pollUntil(() => readArgvLines(argvFile)[0], { what: "the agent's argv", timeoutMs: 20_000 });
    const worktree = join(root, "worktrees", "researcher-1");
    expect(started).toEqual({
      argv: [EVIL, EVIL, join(root, "state/agents/researcher-1/prompt.md"), worktree],
      env: expect.objectContaining({ ORG_AGENT: "researcher-1", HOSTILE_ENV: EVIL }),
      cwd: worktree,
    });
    // The verifier's baseline run: its argv went to its run log verbatim.
    const runLog = await pollUntil(() => {
      const runs = join(root, "state/runs");
      const logs = existsSync(runs)
        ? (readdirSync(runs, { recursive: true }) as string[]).filter((file) => file.endsWith(".log"))
        : [];
      const text = logs.map((file) => readFileSync(join(runs, file), "utf8")).join("");
      return text.includes('"argv"') ? text : undefined;
    }, { what: "a verify run", timeoutMs: 30_000 });
    expect(JSON.parse(runLog.split("\n").find((line) => line.startsWith("{"))!).argv).toEqual([EVIL]);
    expect(existsSync(join(worktree, share))).toBe(true);
    expect(git(root, ["for-each-ref", "--format=%(refname:short)", "refs/heads/org/"]).trim()).toBe(
      `org/${name}/researcher-1`,
    );

    expect(runOrg(["down"], { cwd: root }).code).toBe(0);
    const searched = [outer, tmpdir(), homedir(), process.cwd()];
    expect(searched.flatMap((dir) => findPwned(dir, dir === outer ? 8 : 0))).toEqual([]);
  }, 120_000);

  test("state and the tmux socket are not writable by other users, even under umask 000", async () => {
    outer = makeTempDir();
    const name = `md${process.pid}`;
    const root = createRepo(
      {
        "org.yaml": `name: ${name}\ngpus: none\nruntimes:\n  bot: { command: ` +
          `["${bin("forever")}"] }\nroles:\n  researcher: { prompt: prompts/researcher.md, runtime: bot }\n`,
        "prompts/researcher.md": PROMPT,
      },
      outer,
    );
    org = { dir: root, socket: tmuxSocket(name, root) };
    // Our own fixed script; the arguments stay positional.
    const up = spawnSync("sh", ["-c", 'umask 000 && exec "$0" "$@"', process.execPath, ORG_BIN, "up"], {
      cwd: root,
      env: { ...process.env, TMUX: "", ORG_ROOT: "" },
      encoding: "utf8",
    });
    expect(up.status, up.stderr).toBe(0);
    const mode = (path: string) => statSync(path).mode & 0o777;
    // Group and others may not write: no one else can plant a message, a lock, a launch.json or a verdict.
    for (const path of ["state", "state/agents", "state/agents/researcher-1", "state/agents/researcher-1/inbox"].map(
      (path) => join(root, path),
    )) {
      if (existsSync(path)) expect(mode(path) & 0o022, path).toBe(0);
    }
    const socketDir = join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid!()}`);
    expect(mode(socketDir)).toBe(0o700);
    expect(mode(join(socketDir, org.socket)) & 0o007).toBe(0);
    expect(tmux(org.socket, ["has-session"]).code).toBe(0);
  }, 60_000);
});
