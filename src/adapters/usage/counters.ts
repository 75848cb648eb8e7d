/**
 * What the daemon asks of the world, counted for its heartbeat: the scale bench divides tmux commands by supervisor
 * polls and counts processes spawned while the org idles. Plain numbers, bumped where the work is done.
 */
export const usage = {
  /** Looks the supervisor took at all panes. */
  polls: 0,
  /** Commands sent over tmux control-mode clients (each a line, no process). */
  tmuxCommands: 0,
  /** Processes started through the process runner (git, tmux, verify runs). */
  spawned: 0,
};
