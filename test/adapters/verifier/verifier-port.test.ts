import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

test("verdicts of parallel runs landing at once: results.tsv gets its header once and every row", async () => {
  dir = makeTempDir("org-verifier-port-");
  const port = createVerifierPort({ repo: dir, state: dir });
  await Promise.all(["row1", "row2", "row3"].map((row) => port.appendResult("H", row)));
  expect(readFileSync(join(dir, "results.tsv"), "utf8")).toBe("H\nrow1\nrow2\nrow3\n");
});
