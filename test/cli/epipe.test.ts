// `org … | head`: a reader that closes the pipe first ends org quietly, with no stack trace.
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { ORG_BIN } from "../helpers/org-cli.js";

describe("a closed pipe", () => {
  test("org --help into a reader that has already gone: exit 0, nothing on stderr", () => {
    // `true` exits before node has started, so org's first write meets a closed pipe.
    const script = `set -o pipefail; "${process.execPath}" "${ORG_BIN}" --help | true`;
    const result = spawnSync("bash", ["-c", script], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
