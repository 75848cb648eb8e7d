import type { WorktreeEntry } from "../ports.js";

/** Parse `git worktree list --porcelain` into entries. */
export function parseWorktreeList(text: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter(Boolean);
    const path = lines.find((line) => line.startsWith("worktree "))?.slice("worktree ".length);
    if (!path) continue;
    const head = lines.find((line) => line.startsWith("HEAD "))?.slice(5) ?? null;
    const ref = lines.find((line) => line.startsWith("branch "))?.slice(7) ?? null;
    entries.push({
      path,
      head,
      branch: ref?.replace(/^refs\/heads\//, "") ?? null,
      prunable: lines.some((line) => line.startsWith("prunable")),
    });
  }
  return entries;
}

export type RemovalDecision = { kind: "remove"; reason: string } | { kind: "keep"; reason: string };

/** Whether `org down --clean` may remove a worktree: never when it holds work that lives nowhere else. */
export function decideWorktreeRemoval(input: {
  dirty: string[]; branch: string | null; expectedBranch: string; ignored: string[];
}): RemovalDecision {
  const dirt = input.dirty.filter((line) => !input.ignored.some((path) => line.slice(3).replace(/\/$/, "") === path));
  if (dirt.length > 0) {
    const sample = dirt.slice(0, 3).map((line) => line.slice(3)).join(", ");
    return {
      kind: "keep",
      reason: `uncommitted changes (${dirt.length} `
        + `path${dirt.length === 1 ? "" : "s"}: ${sample}${dirt.length > 3 ? ", …" : ""})`,
    };
  }
  if (input.branch !== input.expectedBranch) {
    return {
      kind: "keep",
      reason: `HEAD is on ${input.branch ?? "a detached commit"}, not ${input.expectedBranch}; `
        + `its commits may live nowhere else`,
    };
  }
  return { kind: "remove", reason: `clean; its commits stay on branch ${input.expectedBranch}` };
}
