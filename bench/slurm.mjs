// Slurm backend: `org up` → every researcher running for 8 researchers, next to the local backend in the same run.
// Needs root and apt (test/slurm/start.sh starts a single-host cluster with 8 fake GPUs); run alone: node bench/run.mjs
// slurm.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FOREVER, ROOT, createRepo, downAndRemove, median, ms, org } from "./lib.mjs";

const VERDICTS = 6;

const AGENTS = 8;

function orgYaml(name, backend) {
  const where = backend === "slurm" ? "gpus: auto\nbackend: slurm\n" : "gpus: none\n";
  return `name: ${name}\n${where}runtimes:\n  idle: { command: ["${FOREVER}"] }\nroles:\n  r: { prompt: prompt.md, ` +
    `runtime: idle, count: ${AGENTS}, gpu: true }\n`;
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
    downAndRemove(dir);
  }
}

// The demo org (builtin hillclimb researchers, node train.mjs as the verify command) until VERDICTS verdicts:
// the median time from a submit to its verdict. Under Slurm each run is a step of the agent's own job.
async function timeVerdicts(backend) {
  const dir = createRepo({ "README.md": "slurm bench\n" });
  try {
    const { createDemoRepo } = await import(join(ROOT, "dist/adapters/git/demo-repo.js"));
    await createDemoRepo(join(dir, "research"));
    const demo = readFileSync(join(ROOT, "org.yaml"), "utf8")
      .replace(/^name: .*$/m, `name: bv${process.pid}${backend[0]}`)
      .replace(/^repo: .*$/m, "repo: research");
    writeFileSync(
      join(dir, "org.yaml"),
      backend === "slurm"
        ? demo.replace(/^gpus: .*$/m, "gpus: auto\nbackend: slurm")
        : demo.replace(/^gpus: .*$/m, "gpus: none"),
    );
    execFileSync("cp", ["-r", join(ROOT, "prompts"), join(dir, "prompts")]);
    org(["up", "--no-attach"], dir);
    const verdicts = join(dir, "state", "verdicts");
    const start = performance.now();
    for (;;) {
      const files = existsSync(verdicts) ? readdirSync(verdicts).filter((file) => file.endsWith(".json")) : [];
      if (files.length >= VERDICTS) {
        // A request id starts with its submit time, e.g. 2026-11-29T13-30-42-123Z.
        const waits = files.map(
          (file) =>
            statSync(join(verdicts, file)).mtimeMs -
            Date.parse(file.slice(0, 24).replace(/^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/, "$1:$2:$3.$4Z")),
        );
        return median(waits.filter((wait) => Number.isFinite(wait)).map((wait) => Number(wait.toFixed(1))));
      }
      if (performance.now() - start > 120_000) throw new Error(`${backend}: only ${files.length} verdicts after 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    downAndRemove(dir);
  }
}

export async function benchSlurm(rounds = 3) {
  const started = execFileSync("bash", [join(ROOT, "test/slurm/start.sh")], {
    encoding: "utf8",
    env: { ...process.env, ORG_SLURM_GPUS: String(AGENTS) },
  });
  process.env.SLURM_CONF = /export SLURM_CONF=(\S+)/.exec(started)[1];
  const local = [];
  const slurm = [];
  for (let round = 0; round < rounds; round++) {
    local.push(await timeUpToRunning("local", round));
    slurm.push(await timeUpToRunning("slurm", round));
  }
  const submitToVerdict = { local: await timeVerdicts("local"), slurm: await timeVerdicts("slurm") };
  const result = {
    agents: AGENTS,
    rounds,
    up_to_all_running_ms: { local: median(local), slurm: median(slurm) },
    local_all_ms: local,
    slurm_all_ms: slurm,
    verdicts: VERDICTS,
    submit_to_verdict_ms: submitToVerdict,
  };
  process.stderr.write(
    `slurm: ${AGENTS} researchers up → all running: slurm ${result.up_to_all_running_ms.slurm} ms, ` +
      `local ${result.up_to_all_running_ms.local} ms\n`,
  );
  process.stderr.write(
    `slurm: demo org, submit → verdict (median of ${VERDICTS}): slurm ${submitToVerdict.slurm} ms, ` +
      `local ${submitToVerdict.local} ms\n`,
  );
  return result;
}
