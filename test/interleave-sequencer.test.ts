import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import { interleaveProjects } from "./interleave-sequencer.js";

const dir = mkdtempSync(join(tmpdir(), "org-sequencer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A spec as the sequencer sees it: its project's name and a file of `bytes` bytes. */
function spec(project: string, name: string, bytes: number): TestSpecification {
  const moduleId = join(dir, `${name}.test.ts`);
  writeFileSync(moduleId, "x".repeat(bytes));
  return { project: { name: project }, moduleId } as unknown as TestSpecification;
}

const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.slice(dir.length + 1, -".test.ts".length));

describe("the test queue", () => {
  it("takes one clients file to every two e2e files, biggest first, and the unit files after them", () => {
    const specs = [
      spec("unit", "u1", 10), spec("e2e", "e-small", 5), spec("clients", "c-small", 1), spec("e2e", "e-big", 50),
      spec("clients", "c-big", 90), spec("e2e", "e-mid", 20), spec("e2e", "e-tiny", 2), spec("unit", "u2", 30),
    ];
    expect(names(interleaveProjects(specs))).toEqual(
      ["c-big", "e-big", "e-mid", "c-small", "e-small", "e-tiny", "u2", "u1"],
    );
  });

  it("runs one project alone biggest first, and a file gone since it was listed last", () => {
    const specs = [spec("unit", "a", 3), spec("unit", "b", 7)];
    const gone = { project: { name: "unit" }, moduleId: join(dir, "gone.test.ts") } as unknown as TestSpecification;
    expect(names(interleaveProjects([gone, ...specs]))).toEqual(["b", "a", "gone"]);
  });
});
