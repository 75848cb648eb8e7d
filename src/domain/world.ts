import type { FilesPort, GitPort, GpuProbe, ProcessPort, PanesPort } from "./ports.js";
import type { SandboxProbe } from "./sandbox/decide-sandbox.js";

/** Everything an org command may touch, injected so decisions stay testable. */
export interface World {
  git: GitPort;
  files: FilesPort;
  gpus: GpuProbe;
  processes: ProcessPort;
  panes(socket: string, session: string): PanesPort;
  now(): Date;
  /** argv that runs this org binary, e.g. [node, /pkg/bin/org.js]. */
  orgArgv: string[];
  /** PATH the agents inherit after our own bin folder. */
  basePath: string;
  /** These variables of our own environment, where set: secrets a runtime declares in pass_env. */
  secretEnv(names: readonly string[]): Record<string, string>;
  /**
   * Whether bwrap can sandbox an agent here, the folder of tmux's sockets a sandbox hides, and
   * the user's home ("" when unset).
   */
  sandbox: { probe(): Promise<SandboxProbe>; tmuxDir: string; home: string };
}
