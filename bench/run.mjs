// `npm run bench`: every figure as JSON on stdout and in bench/out/results.json; progress on stderr.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";
import { benchUp } from "./up.mjs";
import { benchOverhead, benchThroughput } from "./verifier.mjs";

const only = process.argv[2];
const results = { machine: { cpus: (await import("node:os")).cpus().length, node: process.version }, at: new Date().toISOString() };
if (!only || only === "up") results.up = benchUp();
if (!only || only === "overhead") results.verifier_overhead = await benchOverhead();
if (!only || only === "throughput") results.verifier_throughput = await benchThroughput();
mkdirSync(join(ROOT, "bench", "out"), { recursive: true });
writeFileSync(join(ROOT, "bench", "out", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
