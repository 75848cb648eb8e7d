// adapters/fs/untrusted: files in a folder an agent writes, read and written by the daemon without following links.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { reclaimAgentDir } from "../../../src/adapters/fs/agent-dir.js";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import { readUntrusted, sizeUntrusted, writeUntrusted } from "../../../src/adapters/fs/untrusted.js";
import { agentPaths } from "../../../src/domain/paths.js";
import { readJsonlUsage, type JsonlFormat } from "../../../src/adapters/usage/jsonl.js";
import { usageFormatOf } from "../../../src/domain/usage/usage-formats.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let dir: string;
let top: string;
let secret: string;
beforeEach(() => {
  dir = makeTempDir("org-untrusted-");
  top = join(dir, "agent", "home");
  mkdirSync(top, { recursive: true });
  secret = join(dir, "secret.txt");
  writeFileSync(secret, "the daemon's\n");
  mkdirSync(join(dir, "elsewhere"));
});
afterEach(() => removeDir(dir));

describe("files in an agent's folder", () => {
  test("read: a regular file's text; absent is undefined; a link, " +
    "at the file or at a folder on the way, is refused by name", async () => {
    mkdirSync(join(top, "sub"));
    writeFileSync(join(top, "sub", "settings.json"), "{}\n");
    expect(await readUntrusted(top, join(top, "sub", "settings.json"))).toBe("{}\n");
    expect(await readUntrusted(top, join(top, "none.json"))).toBeUndefined();
    symlinkSync(secret, join(top, "link.json"));
    await expect(readUntrusted(top, join(top, "link.json"))).rejects.toThrow(
      `${join(top, "link.json")} is a symbolic link: not followed`,
    );
    symlinkSync(dir, join(top, "up"));
    await expect(readUntrusted(top, join(top, "up", "secret.txt"))).rejects.toThrow(
      `${join(top, "up")} is not a folder (a symbolic link or a file): not followed`,
    );
    await expect(readUntrusted(top, secret)).rejects.toThrow(`${secret} is not inside ${top}`);
  });

  test("read: a FIFO is refused at once, a folder is named, and a file past the cap is not read", async () => {
    execFileSync("mkfifo", [join(top, "pipe")]);
    await expect(readUntrusted(top, join(top, "pipe"))).rejects.toThrow(
      `${join(top, "pipe")} is not a regular file: not read`,
    );
    await expect(readUntrusted(top, join(top, "."))).rejects.toThrow(`is not inside ${top}`);
    mkdirSync(join(top, "folder"));
    await expect(readUntrusted(top, join(top, "folder"))).rejects.toThrow(`${join(top, "folder")} is a directory`);
    writeFileSync(join(top, "big"), "x".repeat(100));
    await expect(readUntrusted(top, join(top, "big"), 10)).rejects.toThrow(
      `${join(top, "big")} is 100 bytes, over the 10 org reads from an agent's folder: not read`,
    );
    expect(await sizeUntrusted(top, join(top, "big"))).toBe(100);
    expect(await sizeUntrusted(top, join(top, "none"))).toBe(0);
  });

  test("write: a link at the file is replaced, not followed; " +
    "a link at a folder is refused; folders are made; no temp file is left", async () => {
    symlinkSync(secret, join(top, "config.toml"));
    await writeUntrusted(top, join(top, "config.toml"), "mine\n");
    expect(lstatSync(join(top, "config.toml")).isFile()).toBe(true);
    expect(readFileSync(join(top, "config.toml"), "utf8")).toBe("mine\n");
    symlinkSync(join(dir, "elsewhere"), join(top, ".gemini"));
    await expect(writeUntrusted(top, join(top, ".gemini", "settings.json"), "{}")).rejects.toThrow(
      `${join(top, ".gemini")} is not a folder (a symbolic link or a file): not followed`,
    );
    expect(readdirSync(join(dir, "elsewhere"))).toEqual([]);
    await writeUntrusted(top, join(top, "a", "b", "c.json"), "{}\n");
    expect(readFileSync(join(top, "a", "b", "c.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(secret, "utf8")).toBe("the daemon's\n");
    expect(readdirSync(join(dir, "agent"))).toEqual(["home"]);
  });
});

describe("the daemon's reading of an agent's transcripts", () => {
  test("a transcripts folder made a link (to another agent's home) " +
    "is refused by name: nothing read through it", async () => {
    const other = join(dir, "other", "projects", "w");
    mkdirSync(other, { recursive: true });
    writeFileSync(
      join(other, "s.jsonl"),
      `${JSON.stringify({ type: "assistant", message: { id: "m1", usage: { input_tokens: 5, output_tokens: 5 } } })}\n`,
    );
    symlinkSync(join(dir, "other", "projects"), join(top, "projects"));
    const read = await readJsonlUsage(
      join(top, "projects"),
      usageFormatOf("claude") as JsonlFormat,
      {},
      Date.now(),
      top,
    );
    expect(read).toEqual({
      records: [],
      cursors: {},
      problems: [
        `cannot list Claude Code's transcripts in ${join(top, "projects")}: ` +
          `${join(top, "projects")} is not a folder (a symbolic link or a file): not followed`,
      ],
    });
  });
});

describe("sharing the repo's files into an agent's worktree", () => {
  test("linked and copied into folders it makes; a folder the agent " +
    "made a link is refused, nothing made through it", async () => {
    const worktree = join(dir, "worktrees", "a-1");
    mkdirSync(worktree, { recursive: true });
    mkdirSync(join(dir, "repo", "data"), { recursive: true });
    writeFileSync(join(dir, "repo", "data", "train.bin"), "bytes");
    expect(await filesPort.share(join(dir, "repo", "data"), join(worktree, "sub", "data"), "copy", worktree)).toBe(
      "created",
    );
    expect(readFileSync(join(worktree, "sub", "data", "train.bin"), "utf8")).toBe("bytes");
    expect(await filesPort.share(join(dir, "repo", "data"), join(worktree, "venv"), "link", worktree)).toBe("created");
    expect(lstatSync(join(worktree, "venv")).isSymbolicLink()).toBe(true);
    symlinkSync(join(dir, "elsewhere"), join(worktree, "cache"));
    await expect(
      filesPort.share(join(dir, "repo", "data"), join(worktree, "cache", "data"), "link", worktree),
    ).rejects.toThrow(`${join(worktree, "cache")} is not a folder (a symbolic link or a file): not followed`);
    expect(readdirSync(join(dir, "elsewhere"))).toEqual([]);
  });
});

describe("reclaiming an agent's folder an older org let it write", () => {
  test("links and FIFOs go, writable folders made links go, " +
    "progress.md moves into own/; the daemon's files stay", async () => {
    const paths = agentPaths(join(dir, "state"), "a-1");
    mkdirSync(join(paths.inbox, "archive"), { recursive: true });
    writeFileSync(paths.status, "{}\n");
    writeFileSync(paths.legacyProgress, "- tried a thing\n");
    symlinkSync(join(dir, ".git-config"), paths.paneLog);
    symlinkSync(secret, paths.events);
    symlinkSync(secret, join(paths.inbox, "archive", "m.md"));
    execFileSync("mkfifo", [paths.launch]);
    symlinkSync(join(dir, "elsewhere"), paths.home);
    const removed = await reclaimAgentDir(paths);
    expect(removed.sort()).toEqual(
      [paths.events, paths.home, join(paths.inbox, "archive", "m.md"), paths.launch, paths.paneLog].sort(),
    );
    expect(readFileSync(paths.status, "utf8")).toBe("{}\n");
    expect(readFileSync(paths.progress, "utf8")).toBe("- tried a thing\n");
    expect(existsSync(paths.legacyProgress)).toBe(false);
    expect(readFileSync(secret, "utf8")).toBe("the daemon's\n");
    // Run again, nothing more to do; a progress.md already in own/ is never overwritten.
    writeFileSync(paths.legacyProgress, "- older\n");
    expect(await reclaimAgentDir(paths)).toEqual([]);
    expect(readFileSync(paths.progress, "utf8")).toBe("- tried a thing\n");
  });
});
