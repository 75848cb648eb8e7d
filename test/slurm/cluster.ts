import { fileURLToPath } from "node:url";
import { processRunner } from "../../src/adapters/process.js";

const SCRIPT_DIR = fileURLToPath(new URL("./", import.meta.url));

/** A first start installs Slurm with apt, and the other test files wait for it on start.sh's lock. */
export const CLUSTER_START_MS = 300_000;

/** A cluster of its own, beside the shared one: another controller port, other node ports, another state folder. */
export interface ClusterOptions {
  dir: string;
  nodes: number;
  ctldPort: number;
  nodePort: number;
}

/**
 * The multi-node suite's cluster: 4 nodes × 4 GPUs that no single-node test file shares, so 16 agents find 16 GPUs
 * free whatever else `npm test` runs beside it.
 */
export const MULTI_NODE: ClusterOptions = {
  dir: "/var/lib/org-slurm-multi",
  nodes: 4,
  ctldPort: 6827,
  nodePort: 17101,
};

function clusterEnv(options?: ClusterOptions): Record<string, string> {
  if (!options) return {};
  const { dir, nodes, ctldPort, nodePort } = options;
  return {
    ORG_SLURM_DIR: dir,
    ORG_SLURM_NODES: String(nodes),
    ORG_SLURM_CTLD_PORT: String(ctldPort),
    ORG_SLURM_NODE_PORT: String(nodePort),
  };
}

/** Starts (or finds running) the single-host test cluster; sets SLURM_CONF for this process and its children. */
export async function startCluster(options?: ClusterOptions): Promise<{ ms: number; output: string }> {
  const result = await processRunner.run(["bash", `${SCRIPT_DIR}start.sh`], {
    timeoutMs: CLUSTER_START_MS - 10_000,
    env: clusterEnv(options),
  });
  if (result.exitCode !== 0)
    throw new Error(`test/slurm/start.sh failed (${result.exitCode}): ${result.stderr}${result.stdout}`);
  const conf = /export SLURM_CONF=(\S+)/.exec(result.stdout)?.[1];
  if (!conf) throw new Error(`test/slurm/start.sh printed no SLURM_CONF: ${result.stdout}`);
  process.env.SLURM_CONF = conf;
  return { ms: Math.round(result.durationMs), output: result.stderr.trim() };
}

/** Stops a cluster of its own (its jobs, then the daemons its start.sh started) and removes its folder. */
export async function stopCluster(options: ClusterOptions): Promise<void> {
  const result = await processRunner.run(["bash", `${SCRIPT_DIR}stop.sh`, "--purge"], {
    timeoutMs: 30_000,
    env: clusterEnv(options),
  });
  if (result.exitCode !== 0) throw new Error(`test/slurm/stop.sh failed (${result.exitCode}): ${result.stderr}`);
}

/** A tmux server on a private socket whose windows keep their pane after the program ends, to read its exit. */
export function createPaneHost(socket: string) {
  const tmux = (...args: string[]) =>
    processRunner.run(["tmux", "-L", socket, "-f", "/dev/null", ...args], { timeoutMs: 10_000 });
  return {
    async start(): Promise<void> {
      await tmux("new-session", "-d", "-s", "keep", "-x", "200", "-y", "50");
      await tmux("set-option", "-g", "remain-on-exit", "on");
    },
    /** Runs argv in a new window, as an agent's pane would, and resolves to its exit status once it ends. */
    async run(name: string, argv: string[], env: Record<string, string>): Promise<number> {
      await tmux(
        "new-window",
        "-d",
        "-t",
        "keep",
        "-n",
        name,
        ...Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
        "--",
        ...argv,
      );
      for (;;) {
        const panes = await tmux("list-panes", "-t", `keep:${name}`, "-F", "#{pane_dead} #{pane_dead_status}");
        const [dead, status] = panes.stdout.trim().split(" ");
        if (panes.exitCode !== 0) return 1;
        if (dead === "1") return Number(status);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async screen(name: string): Promise<string> {
      return (await tmux("capture-pane", "-p", "-t", `keep:${name}`)).stdout;
    },
    async kill(): Promise<void> {
      await tmux("kill-server");
    },
  };
}
