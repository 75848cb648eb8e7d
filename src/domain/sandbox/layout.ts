import { dirname, join } from "node:path";
import { branchName } from "../paths.js";
import { SANDBOX_HOST_ARGS } from "./sandbox-host-args.js";

/** Where one agent's sandbox lets it write, and what it hides; every path absolute. */
export interface SandboxLayout {
  bwrap: string;
  /** The org folder and the research repo: read-only, but for what follows. */
  root: string;
  repo: string;
  /** Every agent's worktree lives here: hidden, but for the agent's own, writable. */
  worktrees: string;
  worktree: string;
  /**
   * The folders of state/agents/<agent> it may write: its CLI's config home, own/ (progress, scratch), its meta
   * proposal and its outbox. The rest there (launch spec, status, events, pane log, inbox, task) is the daemon's.
   */
  agentWritable: readonly string[];
  outbox: string;
  /**
   * The agent's HOME, state/agents/<agent>/home (its CLI's config folder too): every cache and
   * dotfile a CLI keeps under ~.
   */
  home: string;
  /** The repo's common git folder, the worktree's own git folder in it, and the org name of the branches. */
  git: { common: string; worktreeDir: string; org: string };
  /** The user's home when the private /tmp would hide it: readable again, like every home, never writable. */
  tmpHome?: string;
  /** node's and org's installs under /tmp, readable again; bound before the org, so what it hides stays hidden. */
  installs?: readonly string[];
  /** The user's git config, the agent's global one (read-only): its commits carry the user's name, as unsandboxed. */
  gitConfig?: string;
  /** sandbox.read and sandbox.write of org.yaml. */
  read: string[];
  write: string[];
  /** Folders that vanish (tmux's socket folder) and files masked by /dev/null (the pty host's socket). */
  hideDirs: string[];
  maskFiles: string[];
  /** Runs as a step of the agent's Slurm job, on a node: its `org` polls the outbox, FIFOs do not cross hosts. */
  step: boolean;
}

/** One agent's sandbox: bwrap and its arguments up to the program's. */
export interface AgentSandbox {
  bwrap: string;
  args: string[];
  /** Made on the node around the job step (if bwrap works there); the pane, `org slurm-run`, stays outside. */
  step?: true;
}

/**
 * The host read-only, the org read-only over it, then the agent's own places writable. Later mounts win in bwrap, so
 * the order is the policy. Its own pid namespace and /proc: the agent sees and signals only its own processes
 * (`pkill node` ends no daemon), all ended with the pane; its org commands are known by their outbox, not a pid.
 * No --new-session: the CLIs need their terminal.
 */
export function planSandbox(layout: SandboxLayout): AgentSandbox {
  const { git } = layout;
  const ro = (path: string) => ["--ro-bind", path, path];
  const rw = (path: string) => ["--bind", path, path];
  // A parent first, so the child's mount is not covered by it.
  const tops = [...new Set([layout.root, layout.repo, git.common])].sort((a, b) => a.length - b.length);
  // org/<name>/: every agent branch of the org and best, in one folder of loose refs.
  const folder = dirname(branchName(git.org, "best"));
  const branches = join(git.common, "refs", "heads", folder);
  const args = [
    "--die-with-parent",
    ...SANDBOX_HOST_ARGS,
    ...(layout.tmpHome ? ro(layout.tmpHome) : []),
    ...(layout.installs ?? []).flatMap(ro),
    ...tops.flatMap(ro),
    "--tmpfs", layout.worktrees,
    ...layout.read.flatMap(ro),
    ...layout.write.flatMap(rw),
    // After read and write: no entry (a write: [/tmp]) shows the sockets again; a socket
    // connects on a read-only mount too.
    ...layout.hideDirs.flatMap((dir) => ["--tmpfs", dir]),
    ...layout.maskFiles.flatMap((file) => ["--ro-bind", "/dev/null", file]),
    ...rw(layout.worktree),
    ...layout.agentWritable.flatMap(rw),
    // git commits on the agent's branch: new objects (packs stay read-only), its worktree's
    // index and HEAD, the branch and its reflog.
    ...rw(join(git.common, "objects")),
    ...ro(join(git.common, "objects", "pack")),
    ...rw(git.worktreeDir),
    // Its per-worktree config would be read by the daemon's git in this worktree (with extensions.worktreeConfig).
    ...ro(join(git.worktreeDir, "config.worktree")),
    ...rw(branches),
    ...rw(join(git.common, "logs", "refs", "heads", folder)),
    // best (and b-best, B's in an A/B run) is a symbolic ref never rewritten in place: this mount holds, and it
    // follows refs/frontier/<org> (refs/frontier-b/<org>), read-only.
    ...ro(join(branches, "best")),
    ...ro(join(branches, "b-best")),
    // The emptied folders stay empty: an agent makes nothing there that only it would see.
    ...[...layout.hideDirs, layout.worktrees].flatMap((dir) => ["--remount-ro", dir]),
    "--chdir", layout.worktree,
    // Repacking and pruning are for the repo's owner: the agent's git must not try them on the shared object store.
    "--setenv", "GIT_CONFIG_COUNT", "2",
    "--setenv", "GIT_CONFIG_KEY_0", "gc.auto", "--setenv", "GIT_CONFIG_VALUE_0", "0",
    "--setenv", "GIT_CONFIG_KEY_1", "maintenance.auto", "--setenv", "GIT_CONFIG_VALUE_1", "false",
    "--setenv", "HOME", layout.home, "--setenv", "TMPDIR", "/tmp",
    ...(layout.gitConfig ? ["--setenv", "GIT_CONFIG_GLOBAL", layout.gitConfig] : []),
    "--setenv", "ORG_OUTBOX", layout.outbox,
    ...(layout.step ? ["--setenv", "ORG_OUTBOX_POLL", "1"] : []),
  ];
  return { bwrap: layout.bwrap, args, ...(layout.step ? { step: true as const } : {}) };
}
