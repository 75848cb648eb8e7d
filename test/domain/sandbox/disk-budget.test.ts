import { linkSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { measureTree } from "../../../src/adapters/fs/tree-size.js";
import { isDiskBlock, judgeAgentDisk, judgeFloor, type AgentDiskUse } from "../../../src/domain/sandbox/disk-budget.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const MIB = 1024 ** 2;
const use = (agent: string, bytes: number, partial = false): AgentDiskUse =>
  ({ agent, bytes, partial, places: [`worktrees/${agent}`, `state/agents/${agent}`], largest: `worktrees/${agent}` });

describe("measureTree", () => {
  let dir: string;
  afterEach(() => removeDir(dir));

  it("counts blocks written, each inode once, never through a link nor a sparse file's holes", async () => {
    dir = makeTempDir("org-tree-");
    const other = makeTempDir("org-tree-other-");
    writeFileSync(join(other, "big"), Buffer.alloc(4 * MIB, 1));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "data"), Buffer.alloc(2 * MIB, 1));
    linkSync(join(dir, "sub", "data"), join(dir, "again"));
    symlinkSync(join(other, "big"), join(dir, "link"));
    symlinkSync(other, join(dir, "folder-link"));
    writeFileSync(join(dir, "sparse"), "");
    truncateSync(join(dir, "sparse"), 1024 * MIB);
    const size = await measureTree(dir, 1000);
    removeDir(other);
    expect(size.partial).toBe(false);
    expect(size.entries).toBe(6);
    // 2 MiB of data, plus the folders' own blocks and the links:
    // far below the 4 MiB behind the links or the 1 GiB hole.
    expect(size.bytes).toBeGreaterThanOrEqual(2 * MIB);
    expect(size.bytes).toBeLessThan(2 * MIB + 64 * 1024);
  });

  it("stops at its cap and says the size is partial; a missing folder is empty", async () => {
    dir = makeTempDir("org-tree-");
    for (let index = 0; index < 30; index++) writeFileSync(join(dir, `f${index}`), "x");
    expect(await measureTree(dir, 10)).toMatchObject({ partial: true, entries: 0 });
    expect(await measureTree(dir, 30)).toMatchObject({ partial: false, entries: 30 });
    expect(await measureTree(join(dir, "nope"), 10)).toEqual({ bytes: 0, entries: 0, partial: false });
  });
});

describe("disk decisions", () => {
  it("an agent over its budget is blocked with what it wrote, where, and how a person lets it go on", () => {
    expect(judgeAgentDisk(use("a-1", 5 * MIB), 5 * MIB)).toEqual({ kind: "within" });
    const over = judgeAgentDisk(use("a-1", 21 * 1024 * MIB, true), 20 * 1024 * MIB);
    expect(over).toEqual({
      kind: "over",
      reason: "wrote at least 21 GiB in worktrees/a-1 and state/agents/a-1, over sandbox.disk.per_agent (20 GiB), "
        + "so its program was stopped — free space there or raise sandbox.disk.per_agent in org.yaml, "
        + "then restart it (r in `org watch`, or `org down && org up`)",
    });
    expect(over.kind === "over" && isDiskBlock(over.reason)).toBe(true);
    expect(isDiskBlock("not logged in — run claude /login")).toBe(false);
  });

  it("below the floor the three agents that wrote the most are named, largest first", () => {
    expect(judgeFloor(2 * 1024 * MIB, 1024 * MIB, [])).toEqual({ kind: "ok", free: 2 * 1024 * MIB });
    const low = judgeFloor(300 * MIB, 1024 * MIB, [
      use("a-1", 2 * MIB), use("b-1", 9 * 1024 * MIB), use("c-1", 0), use("d-1", 40 * MIB), use("e-1", MIB),
    ]);
    expect(low).toEqual({
      kind: "low", free: 300 * MIB,
      reason: "only 300 MiB free on the disk of state/, below sandbox.disk.floor (1.0 GiB): no verify run starts, "
        + "queued ones wait and nothing is lost; most written: b-1 9.0 GiB (worktrees/b-1), "
        + "d-1 40 MiB (worktrees/d-1), a-1 2.0 MiB (worktrees/a-1) — "
        + "free space on that disk and runs resume by themselves",
    });
  });
});
