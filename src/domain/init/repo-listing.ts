// What `org init` reads of a repo before it guesses: the adapter fills it, the decisions below only read it.

/** A research repo as `org init` sees it: its files, a few of their texts, and what this machine has. */
export interface RepoListing {
  /** The folder's name, for the org's name. */
  folder: string;
  /** The branch checked out, or the commit when HEAD is detached. */
  base: string;
  /** Committed files, relative to the repo root, in git's order. */
  files: string[];
  /** Untracked folders a worktree would miss (node_modules, .venv), when present. */
  untracked: string[];
  /** Texts of the files pickFilesToRead named, by path; one that is missing or too large is absent. */
  texts: Record<string, string>;
  /** Programs found on PATH among PROBED_PROGRAMS. */
  programs: string[];
  /** GPUs nvidia-smi lists; 0 when it is missing or failed. */
  gpus: number;
  /** Why there is no GPU, as the probe said it (nvidia-smi not found on PATH). */
  gpuNote?: string;
  /** Whether org runs as root: claude refuses its unattended flag there unless told it is sandboxed. */
  root?: boolean;
}

export const AGENT_CLIS = ["claude", "codex", "gemini", "opencode"] as const;
export const PROBED_PROGRAMS = [...AGENT_CLIS, "python3", "python", "uv", "node", "npm", "make", "bash"] as const;
/** Untracked folders a verify run or an agent usually needs: shared into every worktree when present. */
export const SHARED_FOLDERS = ["node_modules", ".venv", "venv"] as const;

const READ_LIMIT = 40;
const CODE = /\.(py|mjs|cjs|js|ts|sh|bash)$/;

/** The files whose text the guess reads: the manifests, then code files, shallowest first, at most READ_LIMIT. */
export function pickFilesToRead(files: string[]): string[] {
  const manifests = files.filter((file) => ["package.json", "Makefile", "makefile", "GNUmakefile"].includes(file));
  const code = files.filter((file) => CODE.test(file)).sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
  return [...manifests, ...code].slice(0, READ_LIMIT);
}

function depth(path: string): number {
  return path.split("/").length;
}
