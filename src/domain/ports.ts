import type { Gpu } from "./lifecycle/select-gpus.js";
import type { AgentPaths } from "./paths.js";

// The orchestrator's view of the world. src/adapters implements these; tests may fake them.

export interface WorktreeEntry {
  path: string;
  head: string | null;
  branch: string | null;
  prunable: boolean;
}

export interface NewWorktree {
  path: string;
  branch: string;
  base: string;
  branchExists: boolean;
}

/** What an agent sandbox needs of the repo: its common git folder and each worktree's own git folder in it. */
export interface SandboxGit {
  common: string;
  /** `agent`'s worktree's own git folder, from git's registry in the common folder, once the worktree exists. */
  findWorktreeDir(worktree: string, agent: string): Promise<string>;
}

export interface GitPort {
  worktreeList(repo: string): Promise<WorktreeEntry[]>;
  revParse(dir: string, rev: string): Promise<string | null>;
  /** Every branch under `prefix` (e.g. org/toy/) with its head, in one git call. */
  branchHeads(repo: string, prefix: string): Promise<Map<string, string>>;
  /** Adds a worktree per entry on its existing `branch`, or creates the branch from `base` (never resets one). */
  addWorktrees(repo: string, entries: NewWorktree[]): Promise<void>;
  /** `git status --porcelain` of `agent`'s worktree on the git folders org knows; throws when the registry has none. */
  dirtyFiles(where: { repo: string; state: string; worktree: string; agent: string }): Promise<string[]>;
  /** Removes a worktree found clean by dirtyFiles. */
  removeWorktree(repo: string, path: string): Promise<void>;
  pruneWorktrees(repo: string): Promise<void>;
  /** Adds patterns to the repository's info/exclude (shared by every worktree). */
  excludePaths(repo: string, patterns: string[]): Promise<void>;
  /**
   * Readies the repo for sandboxed agents of org `org` (best as a symbolic ref); needs no
   * worktree, so it runs beside their making.
   */
  prepareSandbox(repo: string, org: string): Promise<SandboxGit>;
  /** The verifier's own object store with the base in it, and the base's protected files recorded, before any agent. */
  prepareVerifier(input: { repo: string; state: string; base: string; protected: string[] }): Promise<void>;
}

export interface PaneSpec {
  argv: string[];
  cwd: string;
  /** Environment of the pane's program on top of the server's. */
  env?: Record<string, string>;
  options: Record<string, string>;
  /** Where the pane's output is appended. tmux agent panes get it from the daemon's supervisor (PaneHost.startLog). */
  logFile: string;
}

export interface PaneInfo {
  id: string;
  pid: number;
  dead: boolean;
  deadStatus: number | null;
  /** The signal that ended the pane's program, e.g. SIGTERM; null when it exited or still runs. */
  deadSignal?: string | null;
  /** Epoch ms when the pane's program ended. */
  deadAt?: number | null;
  /** Whether its output is being logged (tmux pipe-pane); undefined where the host logs every pane itself. */
  piped?: boolean;
  options: Record<string, string>;
}

/** What a pane runs: the agent program itself, attached to the pane's terminal. */
export interface PaneLaunch {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

/** One agent's pane as its host (tmux, or node-pty without tmux) sees it. */
export interface AgentPane {
  agent: string;
  id: string;
  pid: number;
  dead: boolean;
  exitCode: number | null;
  exitSignal: string | null;
  /** Epoch ms when the program ended, when the host knows. */
  exitedAt: number | null;
  /** false: its output is not logged yet, and startLog should begin it. */
  logged?: boolean;
}

/** Where agent programs run; the daemon's supervisor restarts them through it. */
export interface PaneHost {
  /** Every agent pane, found by its agent label, in one call; undefined when the host itself is gone. */
  listAgentPanes(): Promise<AgentPane[] | undefined>;
  /**
   * Kills what runs in the pane, if anything, and starts `launch` in it; `logFile`: log the
   * new program's output there.
   */
  respawn(id: string, launch: PaneLaunch, logFile?: string): Promise<void>;
  /** Mirrors the agent's state where a person looks (the pane border); failures are ignored. */
  setStatus(id: string, status: string): Promise<void>;
  /** Appends what the pane has shown so far to `file` and, while its program runs, everything it shows from now on. */
  startLog?(id: string, file: string, dead: boolean): Promise<void>;
  /** Resolves when a pane may have changed (a program exited, a pane was made or restarted), or after `ms` at most. */
  waitForChange?(ms: number): Promise<void>;
  close(): void;
}

/** One look at the grid: every pane of the session and the visible text of the panes asked for. */
export interface PaneCapture {
  panes: PaneInfo[];
  screens: Map<string, string>;
  /** Terminals attached to the grid (people, not programs); absent where the host cannot tell. */
  people?: number;
}

/** A standing connection to the grid for a dashboard's refreshes; a down org captures no panes. */
export interface PaneFeed {
  /** listPanes plus the visible text of `ids`, as one tmux command line. */
  capture(ids: string[]): Promise<PaneCapture>;
  /** How many people (terminal clients) are attached, in one command; undefined when it cannot be told. */
  countPeople?(): Promise<number | undefined>;
  close(): void;
}

/**
 * Where screens come from and keys go: tmux panes (adapters/tmux/control-screen-port.ts) or any other terminal host.
 */
export interface ScreenPort {
  capture(paneIds: string[]): Promise<Map<string, string>>;
  /** Types `text` literally, then submits it with a separate Enter. */
  sendLine(paneId: string, text: string): Promise<void>;
  sendKeys(paneId: string, keys: string[]): Promise<void>;
  /** Asked right before typing: the pane's program still runs. */
  paneAlive?(paneId: string): Promise<boolean>;
  /** Lets go of a standing connection, if the port holds one. */
  close?(): void;
}

/**
 * One look at a pane for the notifier: its text (with what tells a scrolled or moved screen
 * apart), whether it is dead, whose it is.
 */
export interface PaneText {
  text: string;
  dead: boolean;
  /** The pane's @org_agent label. */
  agent: string;
}

/**
 * What the daemon's notifier needs of the grid: tmux (adapters/tmux/notice-client.ts) or the
 * pty host (adapters/pty/notice-port.ts).
 */
export interface NoticePort {
  /** Each agent's pane, by the @org_agent label `org up` gives it; undefined when the grid's server is down. */
  listAgentPanes(): Promise<Map<string, string> | undefined>;
  /** Each pane's look; undefined when any of them cannot be looked at (a pane gone, the server down). */
  look(panes: string[]): Promise<Map<string, PaneText> | undefined>;
  /**
   * `line` as one paste, bracketed when the pane's program asked for it; false when it fails.
   * `buffer` names tmux's paste buffer.
   */
  paste(pane: string, line: string, buffer: string): Promise<boolean>;
  /** Enter on its own: sent with a paste, some agents take it as part of the pasted text. */
  pressEnter(pane: string): Promise<boolean>;
  close(): void;
}

/** Writes down a child process that may outlive its daemon, so the next one can end it. */
/** A child announced before its spawn: its environment carries `env`, and it is told the pid once there is one. */
export interface ChildTicket {
  env: Record<string, string>;
  started(pid: number | undefined): void;
  ended(pid: number | undefined): void;
}

export interface ChildTracker {
  /** command: an agent's `org` command the daemon runs for a sandboxed agent. */
  announce(kind: "verify" | "waiter" | "command", what: string, group: boolean): ChildTicket;
}

export interface PanesPort {
  readonly socket: string;
  readonly session: string;
  isRunning(): Promise<boolean>;
  /** Has the server reap its panes' ended programs, so a dead pane gets its exit status (tmux alone). */
  reapExited?(): Promise<void>;
  /** Creates the server, session and tiled grid in one tmux invocation; returns pane ids in order. */
  /** Builds the grid and returns its panes as listed once built, in the order of `panes`. */
  createGrid(panes: PaneSpec[], size: { width: number; height: number }): Promise<PaneInfo[]>;
  listPanes(): Promise<PaneInfo[]>;
  killServer(): Promise<void>;
  /** argv a person runs to attach, with `pane` selected. */
  attachArgv(pane?: string): string[];
  selectPane(pane: string): Promise<void>;
  openPaneFeed(): PaneFeed;
  /**
   * Kills what runs in the pane and starts `launch` in it, or its original command again; the
   * pane's log pipe survives.
   */
  respawnPane(pane: string, launch?: PaneLaunch): Promise<void>;
  /** A standing connection that supervises agent panes by label; helpers it starts are recorded with `children`. */
  openPaneHost(children?: ChildTracker): PaneHost;
  /** Screens of the panes and keys into them, for the daemon's screen watch. */
  openScreenPort(): ScreenPort;
  /** Looks at agent panes and types notifications into them, for the daemon's notifier. */
  openNoticePort(): NoticePort;
  /**
   * Appends panes after the last one and re-tiles, in one tmux call; the active pane stays
   * active. Returns the new ids.
   */
  addPanes(panes: PaneSpec[]): Promise<string[]>;
  /** Kills panes whose processes were already stopped; the grid is not re-tiled. */
  killPanes(ids: string[]): Promise<void>;
  setPaneOptions(pane: string, options: Record<string, string>): Promise<void>;
  retile(): Promise<void>;
}

export interface GpuProbe {
  probe(): Promise<Gpu[] | { error: string }>;
}

export interface FilesPort {
  exists(path: string): Promise<boolean>;
  readText(path: string): Promise<string | undefined>;
  writeAtomic(path: string, content: string): Promise<void>;
  appendLines(path: string, lines: string[]): Promise<void>;
  mkdir(path: string): Promise<void>;
  /** Symlink or copy `source` to `target` below `within` (a worktree: no link in it followed) unless target exists. */
  share(source: string, target: string, mode: "link" | "copy", within: string): Promise<"created" | "exists"
    | "missing">;
  removeFile(path: string): Promise<void>;
  makeExecutable(path: string): Promise<void>;
  /** Takes an exclusive lock file; returns false when a live process holds it. */
  tryLock(path: string): Promise<boolean>;
  /** An agent's folder made the daemon's again (links removed, progress.md into own/); returns what it removed. */
  reclaimAgentDir(paths: AgentPaths): Promise<string[]>;
  /** Text of a file below `top`, a folder an agent can write, read without following links; undefined when absent. */
  readUntrusted(top: string, path: string): Promise<string | undefined>;
  /** Replaces a file below `top`, a folder an agent writes, without following links; top's parent is the daemon's. */
  writeUntrusted(top: string, path: string, content: string): Promise<void>;
}

export interface ProcessPort {
  isAlive(pid: number): boolean;
  /** When the live process `pid` started (ms since the epoch); undefined when none runs (or no /proc). */
  startedAt(pid: number): number | undefined;
  killGroup(pgid: number, graceMs?: number): Promise<void>;
  /** Ends what a dead daemon recorded in `dir` (verify runs, waiters); returns a line per process ended. */
  endOrphans(dir: string): Promise<string[]>;
}
