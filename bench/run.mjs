// `npm run bench`: every figure as JSON on stdout and in bench/out/results.json; progress on stderr.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";
import { benchUp } from "./up.mjs";
import { benchOverhead, benchThroughput } from "./verifier.mjs";
import { benchReload } from "./reload.mjs";
import { benchWatch } from "./watch.mjs";
import { benchRigor } from "./rigor.mjs";
import { benchMessages } from "./messages.mjs";
import { benchSlurm } from "./slurm.mjs";
import { benchScale } from "./scale.mjs";
import { benchClients } from "./clients.mjs";
import { benchDeps } from "./deps.mjs";
import { benchPool } from "./pool.mjs";
import { benchCompare } from "./compare.mjs";
import { benchDemoLearns } from "./demo-learns.mjs";
import { benchDemoOrgSim } from "./demo-org-sim.mjs";
import { benchAb } from "./ab.mjs";
import { benchDemoOrg } from "./demo-org.mjs";
import { benchSandbox } from "./sandbox.mjs";
import { benchKeeper } from "./keeper.mjs";

const only = process.argv[2];
const results = {
  machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
  at: new Date().toISOString(),
};
if (!only || only === "up") results.up = benchUp();
if (!only || only === "overhead") results.verifier_overhead = await benchOverhead();
if (!only || only === "throughput") results.verifier_throughput = await benchThroughput();
if (!only || only === "reload") results.reload = await benchReload();
if (!only || only === "rigor") results.rigor = benchRigor();
if (!only || only === "messages") results.messages = await benchMessages();
if (!only || only === "watch") results.watch = await benchWatch();
if (!only || only === "scale") results.scale = await benchScale();
if (!only || only === "compare") results.compare = benchCompare();
if (!only || only === "sandbox") results.sandbox = await benchSandbox();
if (!only || only === "keeper") results.keeper = await benchKeeper();
// The real agent CLIs (scripts/install-clients.sh) behind a scripted
// model server, in TypeScript: only when asked for by name.
if (only === "clients") results.clients = benchClients();
// GPU utilization of own + sync vs pool + sync vs pool + async on 4
// fake GPUs, about 2 min a configuration: only when asked for by name.
if (only === "pool") results.pool = await benchPool();
// The demo org, headless, up to 2 minutes a seed (DEMO_LEARNS_SEEDS,
// DEMO_LEARNS_WINDOW_S): only when asked for by name.
if (only === "demo-learns") results.demo_learns = await benchDemoLearns();
// Ledger + stacking + following vs today on a simulated demo landscape, 3 and 8 researchers, in seconds (needs dist/).
if (only === "demo-org-sim") results.demo_org_sim = benchDemoOrgSim();
// An A/B run of the demo, 3 vs 6 researchers, 20 minutes (AB_A,
// AB_B, AB_WINDOW_S, AB_EVERY_S): only when asked for by name.
if (only === "ab") results.ab = await benchAb();
// The same side by side on the real demo org, 3 and 8 researchers,
// both arms per seed (DEMO_ORG_*): only when asked for by name.
if (only === "demo-org") results.demo_org = await benchDemoOrg();
// Needs root and apt for its single-host cluster: only when asked for by name.
if (only === "slurm") results.slurm = await benchSlurm();
// Installs execa and simple-git into a temp prefix (network): only when asked for by name.
if (only === "deps") results.deps = await benchDeps();
mkdirSync(join(ROOT, "bench", "out"), { recursive: true });
writeFileSync(join(ROOT, "bench", "out", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
