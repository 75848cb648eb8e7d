import type { PaneLaunch } from "../ports.js";
import type { AgentSandbox } from "./layout.js";

/**
 * A sandboxed agent's pane command: bwrap with the agent's environment set inside the sandbox, then the program
 * exec'd as data. Only `secrets` ride the pane's own environment: what launch.json says (the agent may edit it)
 * reaches the program alone, never bwrap, which runs outside the sandbox (an LD_PRELOAD there would be an escape).
 */
export function wrapInSandbox(
  sandbox: AgentSandbox, spec: Pick<PaneLaunch, "argv" | "cwd" | "env">, secrets: Record<string, string>,
): PaneLaunch {
  const setenv = Object.entries(spec.env).flatMap(([key, value]) => ["--setenv", key, value]);
  return {
    argv: [sandbox.bwrap, ...setenv, ...sandbox.args, "--", "/bin/sh", "-c", 'exec "$0" "$@"', ...spec.argv],
    cwd: spec.cwd,
    env: secrets,
  };
}
