// org.yaml of researchers that submit forever (test/fixtures/bin/submit-loop)
// under a stop after `maxExperiments`: the stop e2e tests.
import { bin } from "./test-org/index.js";

/** The verify block of a looping org: train.sh's val_bpb, lower is better, every change that improves it kept. */
export const LOOPING_VERIFY = `verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)', goal: minimize }
  timeout: 10s
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;

/** `count` looping researchers scored by value.txt; the stop's grace is 1 s. */
export const loopingOrgYaml = (count: number) => (maxExperiments: number) => (name: string) => `name: ${name}
repo: .
base: main
gpus: none
runtimes:
  looper: { command: ["${bin("submit-loop")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: looper, count: ${count}, edits: [value.txt] }
${LOOPING_VERIFY}stop:
  max_experiments: ${maxExperiments}
  grace: 1s
`;

/** The research repo's files: train.sh prints value.txt as val_bpb. */
export const LOOPING_FILES = { "train.sh": 'echo "val_bpb: $(cat value.txt)"\n', "value.txt": "1.000\n" };
