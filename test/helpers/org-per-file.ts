import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { runOrg } from "./org-cli.js";
import { createTestOrg, teardownOrg, type RepoOptions, type TestOrg } from "./test-org/index.js";

/** One org for the whole file: made and `org up` before its first test, torn down after its last. */
export function upOrgPerFile(options: RepoOptions): { org: TestOrg; state: string } {
  const shared = {} as { org: TestOrg; state: string };
  beforeAll(() => {
    shared.org = createTestOrg(options);
    shared.state = join(shared.org.dir, "state");
    const up = runOrg(["up"], { cwd: shared.org.dir });
    expect(up.code, up.stderr).toBe(0);
  }, 60_000);
  afterAll(() => teardownOrg(shared.org));
  return shared;
}
