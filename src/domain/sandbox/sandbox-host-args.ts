/**
 * How every sandbox of org starts, an agent's pane or a verify run: no capabilities, whoever runs org (root in a user
 * namespace of its own, uid mapped as is, owns nothing outside it: no remount, no /proc/<pid>/root), its own pid
 * namespace and /proc (it signals only its own processes), the host read-only but its devices (GPUs), and /tmp and
 * /dev/shm its own.
 */
export const SANDBOX_HOST_ARGS: readonly string[] = Object.freeze([
  "--unshare-user", "--unshare-pid", "--cap-drop", "ALL",
  "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
  "--perms", "1777", "--tmpfs", "/tmp", "--perms", "1777", "--tmpfs", "/dev/shm",
]);
