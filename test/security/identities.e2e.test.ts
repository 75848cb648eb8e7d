// The red-team harness itself: an org comes up sandboxed as each identity, and its agent runs as that identity.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pollUntil } from "../helpers/poll.js";
import { IDENTITIES, runOrgAs, teardownOrgAs, type OrgAs } from "./identities.js";
import { bin, createTestOrg } from "../helpers/test-org/index.js";

const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  idle: { command: ["${bin("forever")}"] }
roles:
  a: { prompt: prompts/researcher.md, runtime: idle }
`;

let org: OrgAs | undefined;
afterEach(() => {
  teardownOrgAs(org);
  org = undefined;
});

describe.each(IDENTITIES)("the red-team harness as $name", (who) => {
  test("org up brings a sandboxed agent up, and its process runs as that identity", async () => {
    org = createTestOrg({ as: who, yaml: orgYaml });
    const up = runOrgAs(who, ["up", "--no-attach"], { cwd: org.dir });
    expect(up.stderr).not.toContain("WITHOUT a sandbox");
    expect(up.code, up.stderr).toBe(0);
    const status = await pollUntil(() => {
      const out = runOrgAs(who, ["status", "--json"], { cwd: org!.dir });
      const agents = (JSON.parse(out.stdout || "{}") as { agents?: { name: string; state: string; pid?: number }[] }).agents ?? [];
      return agents.find((agent) => agent.name === "a-1" && agent.state === "running" && agent.pid);
    }, { timeoutMs: 20_000, what: "a-1 running" });
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(join("/proc", String(status.pid), "status"), "utf8"))?.[1];
    expect(Number(uid)).toBe(who.uid);
  }, 60_000);
});
