// Slurm backend: `org up` → every researcher running for 8 researchers, next to the local backend in the same run.
// Needs root and apt (test/slurm/start.sh starts a single-host cluster with 8 fake GPUs); run alone: node bench/run.mjs slurm.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, median, ms, org, removeDir } from "./lib.mjs";

const AGENTS = 8;

function orgYaml(name, backend) {
  const where = backend === "slurm" ? "gpus: auto\nbackend: slurm\n" : "gpus: none\n";
  return `name: ${name}\n${where}runtimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  r: { prompt: prompt.md, runtime: idle, count: ${AGENTS}, gpu: true }\n`;
}

async function timeUpToRunning(backend, round) {
  const name = `bs${process.pid}${backend[0]}${round}`;
  const dir = createRepo({ "prompt.md": "# {{agent}}\n", "org.yaml": orgYaml(name, backend) });
  try {
    const start = performance.now();
    org(["up", "--no-attach"], dir);
    for (;;) {
      const status = JSON.parse(org(["status", "--json"], dir));
      if (status.agents.filter((agent) => agent.state === "running").length === AGENTS) return ms(start);
      if (performance.now() - start > 60_000) throw new Error(`${backend}: not all ${AGENTS} running after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    try { org(["down"], dir); } catch { /* already down */ }
    removeDir(dir);
  }
}

export async function benchSlurm(rounds = 3) {
  const started = execFileSync("bash", [join(ROOT, "test/slurm/start.sh")], { encoding: "utf8", env: { ...process.env, ORG_SLURM_GPUS: String(AGENTS) } });
  process.env.SLURM_CONF = /export SLURM_CONF=(\S+)/.exec(started)[1];
  const local = [];
  const slurm = [];
  for (let round = 0; round < rounds; round++) {
    local.push(await timeUpToRunning("local", round));
    slurm.push(await timeUpToRunning("slurm", round));
  }
  const result = { agents: AGENTS, rounds, up_to_all_running_ms: { local: median(local), slurm: median(slurm) }, local_all_ms: local, slurm_all_ms: slurm };
  process.stderr.write(`slurm: ${AGENTS} researchers up → all running: slurm ${result.up_to_all_running_ms.slurm} ms, local ${result.up_to_all_running_ms.local} ms\n`);
  return result;
}
