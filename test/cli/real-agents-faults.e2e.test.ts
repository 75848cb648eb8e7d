import { afterEach, describe, expect, test } from "vitest";
import { reactions, startTimeline, type Timeline } from "../helpers/model-server/index.js";
import { pollUntil } from "../helpers/poll.js";
import { cliOfRequest, createRealOrg, faultFirst, waitForKeeps, type Cli, type RealOrg } from "../helpers/real-org.js";

// The four real CLIs in one org each time, behind a model service that limits or refuses them.
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const KICKOFF = "Begin the research.";
const roles = CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: KICKOFF }));

describe("real agent CLIs when the model service limits or refuses them", () => {
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

  test("a 401: every CLI is blocked with the fix that names its key, never restarted", async () => {
    timeline = startTimeline();
    org = await createRealOrg(roles, () => ({ kind: "error", status: 401, message: "invalid x-api-key" }));
    expect((await org.up()).code).toBe(0);
    timeline.mark("org", "up");
    await Promise.all(CLIS.map(async (cli) => {
      const agent = `${cli}-r-1`;
      // Codex first shows "Reconnecting... 2/5" while it retries (working, its own retry) until its 401 shows.
      const refused = () => org!.status(agent).state === "blocked" && org!.status(agent).reason.includes("refused its key");
      const blocked = await pollUntil(() => (refused() ? org!.status(agent) : undefined),
        { timeoutMs: 120_000, what: `${cli} blocked for its key`, explain: () => JSON.stringify(org!.status(agent)) });
      timeline!.mark(cli, "blocked seen");
      expect(blocked.reason).toContain(`'s model service refused its key (401): export a valid key in your shell and name it under runtimes.${cli}.pass_env (or fix the service URL under runtimes.${cli}.env), then restart ${agent}`);
      expect(blocked.restarts).toBe(0);
    }));
    const status = await org.org(["status"]);
    expect(status.stdout).toMatch(/claude-r-1 .* blocked /);
  }, 200_000);
});
