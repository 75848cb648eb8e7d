import { afterEach, describe, expect, test } from "vitest";
import { reactions, startTimeline, type Timeline } from "../helpers/model-server/index.js";
import { cliOfRequest, createRealOrg, faultFirst, waitForKeeps, type Cli, type RealOrg } from "../helpers/real-org.js";

// The four real CLIs in one org, behind a model service that limits them (one that refuses them:
// real-agents-refused.clients, a file of its own so the two run side by side).
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const KICKOFF = "Begin the research.";
const roles = CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: KICKOFF }));

describe("real agent CLIs when the model service limits them", () => {
  let org: RealOrg | undefined;
  let timeline: Timeline | undefined;
  afterEach(async () => {
    // Each CLI's requests (the status answered) and milestones: where the test's time went.
    for (const exchange of org?.server.exchanges ?? []) {
      const status = exchange.move.kind === "error" ? exchange.move.status : exchange.move.kind;
      timeline?.mark(cliOfRequest(exchange.request) || "side", String(status), exchange.at);
    }
    console.log(timeline?.lines().join("\n"));
    await org?.close();
    org = undefined;
  });

  test("a 429 with each API's rate-limit shape: every CLI waits and goes on to its verdict; org neither blocks nor " +
    "restarts it", async () => {
    timeline = startTimeline();
    const submit = "printf '0.7\\n' > params.txt && pwd >> params.txt && org submit -m 'raise to 0.7'";
    const researcher = reactions([{ when: (text) => text.includes(KICKOFF), commands: [submit], done: "Submitted." }]);
    const limit = { kind: "error", status: 429, message: "Rate limit reached for requests", retryAfterSeconds: 1 } as const;
    const { script, seen: limited } = faultFirst(2, limit, researcher);
    org = await createRealOrg(roles, script);
    expect((await org.up()).code).toBe(0);
    timeline.mark("org", "up");
    await waitForKeeps(org, CLIS, "past two 429s");
    for (const cli of CLIS) {
      expect(limited.get(cli)!, cli).toBeGreaterThanOrEqual(3);
      expect(org.status(`${cli}-r-1`), cli).toMatchObject({ state: "running", restarts: 0 });
    }
  }, 200_000);
});
