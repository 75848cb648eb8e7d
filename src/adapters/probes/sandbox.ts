import type { SandboxProbe } from "../../domain/sandbox/decide-sandbox.js";
import { processRunner, type Runner } from "../process.js";
import { findProgram } from "./runtime.js";

// The mounts and namespaces every agent sandbox makes, in small: a failure here is the failure an agent's
// pane would show.
const CAPS = ["--unshare-user", "--cap-drop", "ALL"];
const MOUNTS = ["--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "true"];
const NO_USERNS_FIX = "allow user namespaces: sysctl -w user.max_user_namespaces=15000 (in a container, a seccomp "
  + "profile that allows them)";

/**
 * Whether bubblewrap can sandbox an agent here: Linux, bwrap on PATH, and a trial sandbox without capabilities that
 * starts. As root, where only a sandbox keeping root's capabilities starts, that is said apart: org up refuses it.
 */
export async function probeSandbox(
  runner: Runner = processRunner, pathEnv = process.env.PATH ?? "", uid = process.getuid?.(),
): Promise<SandboxProbe> {
  if (process.platform !== "linux") {
    return {
      kind: "unavailable", reason: `bubblewrap sandboxes only on Linux, and this is ${process.platform}`,
      fix: "run the org on Linux to sandbox its agents",
    };
  }
  const bwrap = await findProgram("bwrap", "/", pathEnv);
  if (!bwrap) return {
    kind: "unavailable", reason: "bwrap (bubblewrap) is not on PATH",
    fix: "install it: apt-get install bubblewrap (dnf install bubblewrap)",
  };
  const trial = await runner.run([bwrap, "--die-with-parent", ...CAPS, ...MOUNTS], { timeoutMs: 10_000 });
  if (trial.exitCode === 0) return { kind: "works", bwrap };
  const said = (trial.spawnError ?? trial.stderr.trim().split("\n")[0]) || `exit ${trial.exitCode ?? trial.signal}`;
  if (uid === 0 && (await runner.run([bwrap, "--die-with-parent", ...MOUNTS], { timeoutMs: 10_000 })).exitCode === 0) {
    return {
      kind: "privileged", bwrap,
      reason: `${bwrap} makes a sandbox here only with root's capabilities: it cannot make a user namespace (${said})`,
      fix: NO_USERNS_FIX,
    };
  }
  return {
    kind: "unavailable",
    reason: `${bwrap} cannot make a sandbox here (${said})`,
    fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or "
      + "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04)",
  };
}

/** The folder of this user's tmux sockets, where every org's grid server listens: hidden from agents. */
export function tmuxSocketDir(): string {
  return `${process.env.TMUX_TMPDIR || "/tmp"}/tmux-${process.getuid?.() ?? 0}`;
}
