import { describe, expect, test } from "vitest";
import { startTimeline } from "../helpers/model-server/index.js";
import { pollUntil } from "../helpers/poll.js";
import { closeEachWithTimeline } from "../helpers/real-agents-suite.js";
import { createRealOrg, type Cli } from "../helpers/real-org.js";

// The four real CLIs in one org, behind a model service that refuses their key (one that limits them:
// real-agents-tmux.clients, whose CLIs get two 429s at their start).
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const roles = CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: "Begin the research." }));

describe("real agent CLIs when the model service refuses them", () => {
  const run = closeEachWithTimeline();

  test("a 401: every CLI is blocked with the fix that names its key, never restarted", async () => {
    const timeline = (run.timeline = startTimeline());
    const refuse = () => ({ kind: "error", status: 401, message: "invalid x-api-key" }) as const;
    const org = (run.org = await createRealOrg(roles, refuse));
    expect((await org.up()).code).toBe(0);
    timeline.mark("org", "up");
    await Promise.all(CLIS.map(async (cli) => {
      const agent = `${cli}-r-1`;
      // Codex first shows "Reconnecting... 2/5" while it retries (working, its own retry) until its 401 shows.
      const refused = () =>
        org.status(agent).state === "blocked" && org.status(agent).reason.includes("refused its key");
      const blocked = await pollUntil(() => (refused() ? org.status(agent) : undefined),
        { timeoutMs: 120_000, what: `${cli} blocked for its key`, explain: () => JSON.stringify(org.status(agent)) });
      timeline.mark(cli, "blocked seen");
      expect(blocked.reason).toContain("'s model service refused its key (401): export a valid key in your shell and " +
        `name it under runtimes.${cli}.pass_env (or fix the service URL under runtimes.${cli}.env), ` +
        `then restart ${agent}`);
      expect(blocked.restarts).toBe(0);
    }));
    const status = await org.org(["status"]);
    expect(status.stdout).toMatch(/claude-r-1 .* blocked /);
  }, 200_000);
});
