// The org of the verify.gpus: pool tests: researchers that submit forever and hold no GPU of their own, so each
// verify run is a one-GPU Slurm job of the pool.
import { bin } from "../helpers/test-org/index.js";

/** `count` researchers, `parallel` runs at once; `partition` keeps the runs on one node of the test cluster. */
export const poolOrgYaml = (count: number, parallel: number, partition?: string) => (name: string) => `name: ${name}
repo: .
base: main
gpus: auto
backend: slurm
slurm: { time_limit: "10:00"${partition ? `, partition: ${partition}` : ""} }
runtimes:
  looper: { command: ["${bin("submit-loop")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: looper, count: ${count}, gpu: true, edits: [value.txt] }
verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  timeout: 1m
  gpus: pool
  parallel: ${parallel}
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;
