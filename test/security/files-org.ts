// The org of the files red team: a-1 runs one attack of test/fixtures/bin/files-attack on b-1, which idles.
import { bin } from "../helpers/test-org/index.js";

export const filesAttackYaml = (attack: "links" | "logs") => (name: string) => `name: ${name}
gpus: none
runtimes:
  attack: { command: ["${bin("files-attack")}", ${attack}, b-1] }
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: attack }
  b: { prompt: prompts/researcher.md, runtime: idle }
`;
