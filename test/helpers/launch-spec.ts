// A whole launch.json as `org up` writes it, its owner checks every field: tests give the parts they are about.
import type { LaunchSpec } from "../../src/domain/state.js";

/** `runtime` as a test writes it: only the settings the reader under test looks at. */
export function makeLaunchSpec(parts: Omit<Partial<LaunchSpec>, "runtime"> & { agent: string; runtime?: object }):
  LaunchSpec {
  return {
    role: "researcher", argv: ["true"], cwd: "/", env: {}, restart: "always", backoffMs: 1000, maxBackoffMs: 60_000,
    maxRestarts: 5, healthyAfterMs: 30_000, ...parts, runtime: parts.runtime as LaunchSpec["runtime"],
  };
}
