import { describe, expect, test } from "vitest";
import { reactions, startTimeline } from "../helpers/model-server/index.js";
import { closeEachWithTimeline } from "../helpers/real-agents-suite.js";
import { createRealOrg, faultFirst, waitForKeeps, type Cli } from "../helpers/real-org.js";

// The four real CLIs in one org, behind a model service that limits them (one that refuses them:
// real-agents-refused.clients, a file of its own so the two run side by side).
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const KICKOFF = "Begin the research.";
const roles = CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: KICKOFF }));

describe("real agent CLIs when the model service limits them", () => {
  const run = closeEachWithTimeline();

  test("a 429 with each API's rate-limit shape: every CLI waits and goes on to its verdict; org neither blocks nor " +
    "restarts it", async () => {
    const timeline = (run.timeline = startTimeline());
    const submit = "printf '0.7\\n' > params.txt && pwd >> params.txt && org submit -m 'raise to 0.7'";
    const researcher = reactions([{ when: (text) => text.includes(KICKOFF), commands: [submit], done: "Submitted." }]);
    const limit = {
      kind: "error",
      status: 429,
      message: "Rate limit reached for requests",
      retryAfterSeconds: 1,
    } as const;
    const { script, seen: limited } = faultFirst(2, limit, researcher);
    const org = (run.org = await createRealOrg(roles, script));
    expect((await org.up()).code).toBe(0);
    timeline.mark("org", "up");
    await waitForKeeps(org, CLIS, "past two 429s");
    for (const cli of CLIS) {
      expect(limited.get(cli)!, cli).toBeGreaterThanOrEqual(3);
      expect(org.status(`${cli}-r-1`), cli).toMatchObject({ state: "running", restarts: 0 });
    }
  }, 200_000);
});
