import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { isSameProcess, readStartTicks } from "../src/adapters/process.js";

// The run's folder on a tmpfs of its own where root may mount one: on this machine's disk (ext4 without a journal,
// online discard) the files the suite makes and removes (repos, worktrees, state) cost ~15 % of its CPU, most in the
// kernel's inode allocator (docs/testing.md). Unprivileged, or where mount fails, the folder stays on the disk.

/** The mount's source names its run's process and start time: read back from mountinfo, it can never go missing. */
const SOURCE = /^org-run-(\d+)-(\d+|x)$/;

/** Mount a tmpfs on `dir` owned by this process; false where this user cannot (then the disk serves). */
export function mountRunTmpfs(dir: string): boolean {
  if (process.getuid?.() !== 0) return false;
  const source = `org-run-${process.pid}-${readStartTicks(process.pid) ?? "x"}`;
  return spawnSync("mount", ["-t", "tmpfs", "-o", "mode=1777,size=50%", source, dir], { stdio: "ignore" }).status === 0;
}

/** Lazily: a process the run's reaper has just killed may hold a file in it open for a moment longer. */
export function unmountRunTmpfs(dir: string): void {
  spawnSync("umount", ["-l", dir], { stdio: "ignore" });
}

/** Unmount and remove the run folders in `parent` whose run was killed before its teardown: each holds memory. */
export function reapStaleRunTmpfs(parent: string): string[] {
  const stale = listRunMounts(parent).filter(({ pid, ticks }) => !isSameProcess(pid, ticks));
  for (const { dir } of stale) {
    unmountRunTmpfs(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  return stale.map(({ dir }) => dir);
}

function listRunMounts(parent: string): { dir: string; pid: number; ticks: number | null }[] {
  return readMounts().flatMap(({ dir, type, source }) => {
    const owner = type === "tmpfs" ? SOURCE.exec(source) : null;
    const inParent = dir.startsWith(`${parent}/org-run-`) && !dir.slice(parent.length + 1).includes("/");
    if (!owner || !inParent) return [];
    return [{ dir, pid: Number(owner[1]), ticks: owner[2] === "x" ? null : Number(owner[2]) }];
  });
}

/** This process's mounts: where each is, its filesystem type and its source. */
export function readMounts(): { dir: string; type: string; source: string }[] {
  // A mountinfo line: id parent dev root mountpoint options [optional…] - fstype source super-options.
  return readFileSync("/proc/self/mountinfo", "utf8").split("\n").flatMap((line) => {
    const [mount, filesystem] = line.split(" - ");
    const [type, source] = filesystem?.split(" ") ?? [];
    const dir = mount?.split(" ")[4];
    return dir && type ? [{ dir: decodePath(dir), type, source: source ?? "" }] : [];
  });
}

/** mountinfo writes a space, tab, newline or backslash in a path as a three-digit octal escape. */
function decodePath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
