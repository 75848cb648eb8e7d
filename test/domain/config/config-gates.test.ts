import { describe, expect, it } from "vitest";
import { VALID, load, problemsOf } from "../../fixtures/configs/fake-probe.js";

const VERIFY = `verify:
  command: [python, train.py]
  metric: {name: score, pattern: '^score: ([0-9.]+)'}
`;
const gates = (lines: string) => `${VALID}${VERIFY}  gates:\n${lines}`;

describe("config: verify.gates", () => {
  it("loads named gates in order, the timeout defaulting to 10m; none is no gates", async () => {
    const result = await load(gates("    - {name: types, command: [npx, tsc, --noEmit], timeout: 5m}\n"
      + "    - {name: lint, command: [npx, eslint, .]}\n"));
    expect(result.ok && result.loaded.config.verify?.gates).toEqual([
      { name: "types", command: ["npx", "tsc", "--noEmit"], timeout: "5m" },
      { name: "lint", command: ["npx", "eslint", "."], timeout: "10m" },
    ]);
    const without = await load(`${VALID}${VERIFY}`);
    expect(without.ok && without.loaded.config.verify?.gates).toBeUndefined();
  });

  it("refuses a repeated name, an empty command, a bad timeout and an unknown key, "
    + "all at once with file:line:col", async () => {
    expect(await problemsOf(gates([
      "    - {name: types, command: [npx, tsc]}",
      "    - {name: types, command: []}",
      "    - {name: lint, command: [npx, eslint], timeout: 5 minutes}",
      "    - {name: unit, command: [npm, test], timout: 5m}",
      "",
    ].join("\n")))).toEqual([
      'org.yaml:13:14: gate name "types" is used twice (verify.gates[0] has it too) — give each gate a name of its own',
      "org.yaml:13:30: verify.gates[1].command must not be empty — write e.g. [npx, tsc, --noEmit]",
      'org.yaml:14:53: verify.gates[2].timeout must be a number of seconds or a duration such as 90s, 10m or 1h, '
        + 'got "5 minutes" — write e.g. 5m',
      'org.yaml:15:42: unknown key "timout" in verify.gates[3] — did you mean "timeout"?',
    ]);
  });

  it("refuses a gate without a name or command, a name that is no safe file name, "
    + "and a command that is a string", async () => {
    expect(await problemsOf(gates([
      "    - {command: [npm, test]}",
      "    - {name: type check}",
      "    - {name: lint, command: npx eslint .}",
      "",
    ].join("\n")))).toEqual([
      'org.yaml:12:7: verify.gates[0] is missing required key "name" — add name: types',
      'org.yaml:13:7: verify.gates[1] is missing required key "command" — add command: [npx, tsc, --noEmit]',
      'org.yaml:13:14: gate name "type check" contains a space — use 1-40 letters, digits, \'-\' or \'_\', '
        + 'starting with a letter or digit, e.g. "type-check"',
      'org.yaml:14:29: verify.gates[2].command must be a list, got "npx eslint ." — make it a list: [npx, eslint, "."]',
    ]);
  });
});
