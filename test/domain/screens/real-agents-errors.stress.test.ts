import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { detectScreen } from "../../../src/domain/screens/detect.js";
import { reactions, toolOutputs, type ModelRequest, type Move } from "../../helpers/model-server/index.js";
import { pollUntil } from "../../helpers/poll.js";
import {
  cliOfRequest, createRealOrg, faultFirst, waitForKeeps, type Cli, type RealOrg,
} from "../../helpers/real-org.js";

// The four real CLIs in one org each time, behind a model service
// that fails on its side: 500s, cut or malformed streams, silence.
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const KICKOFF = "Begin the research.";
const cliOf = cliOfRequest;
const roles = CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: KICKOFF }));
const researcher = reactions([
  {
    when: (text) => text.includes(KICKOFF) || text.startsWith("Keep going"),
    commands: ["printf '0.7\\n' > params.txt && org submit -m 'raise to 0.7'"],
    done: "Submitted.",
  },
]);
// The fault each CLI gives up on soonest (seconds, not minutes): claude retries a 500 ten times, gemini longer still.
const GIVES_UP_ON: Record<Cli, Move> = {
  claude: { kind: "malformed" }, codex: { kind: "error", status: 500, message: "Internal server error" },
  gemini: { kind: "malformed" }, opencode: { kind: "malformed" },
};

describe("real agent CLIs when the model service fails on its side", () => {
  let org: RealOrg | undefined;
  afterEach(async () => {
    await org?.close();
    org = undefined;
  });
  const timeline = () => readFileSync(join(org!.state, "log.md"), "utf8");

  test("two 500s, then the service recovers: every CLI retries by itself and reaches its verdict; "
    + "org neither blocks nor restarts it", async () => {
    const { script, seen: failed } = faultFirst(
      2,
      { kind: "error", status: 500, message: "Internal server error" },
      researcher,
    );
    org = await createRealOrg(roles, script);
    expect((await org.up()).code).toBe(0);
    await waitForKeeps(org, CLIS, "past two 500s");
    for (const cli of CLIS) {
      expect(failed.get(cli)!, cli).toBeGreaterThanOrEqual(3);
      expect(org.status(`${cli}-r-1`), cli).toMatchObject({ state: "running", restarts: 0 });
    }
    // Codex's "Reconnecting... 1/5" on a 500 is its own retry, not an offline machine.
    expect(timeline()).not.toMatch(/blocked/);
  }, 200_000);

  test("a service that keeps failing (a 500, a malformed reply) or sends no bytes: a CLI that gives up is blocked with "
    + "the fix that names the service, never a login, and nudged once it recovers; "
    + "one left waiting keeps its spinner and is left alone", async () => {
    // One org, two agents per CLI: -r gets the failure it gives up on soonest, -h a request that never answers.
    const both = [...roles, ...CLIS.map((cli) => ({ role: `${cli}-h`, cli, kickoff: KICKOFF }))];
    const hangs = (request: ModelRequest) => /# Role marker \w+-h\n/.test(request.system);
    // Once a CLI is seen blocked the service recovers for it: org's nudge, after a short nudge_after, is what retries.
    const recovered = new Set<string>();
    const failOrAnswer = (request: ModelRequest): Move => (recovered.has(cliOf(request))
      ? researcher(request)
      : (GIVES_UP_ON[cliOf(request) as Cli] ?? { kind: "text", text: "?" }));
    org = await createRealOrg(both, (request) => (hangs(request) ? { kind: "hang" } : failOrAnswer(request)));
    const yaml = join(org.dir, "org.yaml");
    const nudgeSoon = "answer_trust: true, nudge_after: 5s";
    writeFileSync(yaml, readFileSync(yaml, "utf8").replaceAll("answer_trust: true", nudgeSoon));
    expect((await org.up()).code).toBe(0);
    for (const cli of CLIS) {
      const agent = `${cli}-r-1`;
      const failing = () =>
        org!.status(agent).state === "blocked" && org!.status(agent).reason.includes("keeps failing on its side");
      const blocked = await pollUntil(() => (failing() ? org!.status(agent) : undefined), {
        timeoutMs: 90_000,
        what: `${cli} blocked for its service`,
        explain: () => JSON.stringify(org!.status(agent)),
      });
      expect(blocked.reason).toContain(
        `'s model service keeps failing on its side (a server error, not a login or key problem): `
          + `check the provider's status page, or the service URL under runtimes.${cli}.env; `
          + `org nudges ${agent} to try again after runtimes.${cli}.nudge_after`,
      );
      expect(blocked.reason).not.toMatch(/log in|cannot reach|refused its key/);
      expect(blocked.restarts).toBe(0);
      recovered.add(cli);
    }
    const hungSince = (cli: string) => org!.server.exchanges.find((exchange) =>
      hangs(exchange.request) && exchange.request.system.includes(`marker ${cli}-h`))?.at;
    const hungFor = (cli: string) => Date.now() - (hungSince(cli) ?? Date.now());
    for (const cli of CLIS) {
      const agent = `${cli}-h-1`;
      let screen = "";
      const working = async () => {
        screen = await org!.screen(agent);
        return hungFor(cli) > 15_000 && detectScreen(cli, screen.split("\n")).kind === "working";
      };
      await pollUntil(working, {
        timeoutMs: 60_000, intervalMs: 500, what: `${cli} working on a request hung for 15s`,
        explain: () => `hung ${hungFor(cli)}ms; screen:\n${screen}`,
      });
      expect(org.status(agent), cli).toMatchObject({ state: "running", restarts: 0 });
      expect(timeline()).not.toMatch(new RegExp(`(blocked|nudge).*${agent}`));
    }
    await Promise.all(
      CLIS.map((cli) =>
        pollUntil(() => org!.server.exchanges.some((exchange) => cliOf(exchange.request) === cli
          && toolOutputs(exchange.request).some((output) => output.includes("· keep"))), {
          timeoutMs: 60_000,
          intervalMs: 250,
          what: `${cli} nudged past its service error to its verdict`,
          explain: () => JSON.stringify(org!.status(`${cli}-r-1`)),
        }),
      ),
    );
    for (const cli of CLIS) expect(timeline(), cli).toMatch(new RegExp(`nudge \\| ${cli}-r-1`));
  }, 180_000);
});
