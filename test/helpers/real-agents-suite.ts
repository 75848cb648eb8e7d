import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  earlierToolOutputs, reactions, startTimeline, toolOutputs, userTexts, type Exchange, type ModelRequest, type Timeline,
} from "./model-server/index.js";
import { pollUntil } from "./poll.js";
import {
  cliOfRequest, cpuSecondsOf, createRealOrg, faultFirst, processesOf, type Cli, type RealOrg,
} from "./real-org.js";

// Real Claude Code, Codex, Gemini CLI and opencode in one org under `org up`, each behind a scripted model server
// that plays a researcher: its moves run org's commands through the CLI's own shell tool, as a model would.
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
// Gemini CLI 0.61 can take the notice's Enter as a newline on a loaded machine (an open issue): it is woken by its
// kickoff only.
const MESSAGED: Cli[] = ["claude", "codex", "opencode"];
const KICKOFF = "Begin the research.";
// Each agent's own change (its worktree's path on a second line; Gemini CLI's shell refuses `$(…)`): the same change
// twice would be answered from the ledger, not run.
const SUBMIT = "printf '0.7\\n' > params.txt && pwd >> params.txt && org submit -m 'raise to 0.7'";
const VERDICT = /metric 0\.700000 · your best 0\.700000 \(\w{7}\) · delta \+0\.200000 · keep/;
const submitted = (request: ModelRequest) => toolOutputs(request).some((output) => VERDICT.test(output));
const submittedBefore = (request: ModelRequest) => earlierToolOutputs(request).some((output) => VERDICT.test(output));

const script = reactions([
  { when: /\[org\] new message/, commands: ["org inbox"], done: "Read my inbox." },
  // A restarted CLI gets the kickoff again: the conversation it resumed already holds the verdict.
  {
    when: (text, request) => text.includes(KICKOFF) && submittedBefore(request),
    commands: [],
    done: "Resumed; my earlier submission stands.",
  },
  { when: (text) => text.includes(KICKOFF), commands: [SUBMIT], done: "Submitted; waiting for the next idea." },
]);

// A rate limit in each API's shape: the CLI waits it out by itself, and org neither blocks nor restarts it.
const LIMIT = { kind: "error", status: 429, message: "Rate limit reached for requests", retryAfterSeconds: 1 } as const;

/** A test's real org and timeline, which the test sets; after each test, the org is closed and the timeline printed. */
export interface RealRun {
  org?: RealOrg;
  timeline?: Timeline;
}

/** After each test: each CLI's requests (the status answered) marked on the timeline, printed, and the org closed. */
export function closeEachWithTimeline(): RealRun {
  const run: RealRun = {};
  afterEach(async () => {
    // Where the test's time went.
    for (const exchange of run.org?.server.exchanges ?? []) {
      const status = exchange.move.kind === "error" ? exchange.move.status : exchange.move.kind;
      run.timeline?.mark(cliOfRequest(exchange.request) || "side", String(status), exchange.at);
    }
    console.log(run.timeline?.lines().join("\n"));
    await run.org?.close();
    run.org = undefined;
  });
  return run;
}

/**
 * The whole path of the four real CLIs in one pane mode: a file per mode, so the two run side by side. With
 * `limited`, each CLI's first two requests get a 429 (the same CLI starts then cover the rate limit).
 */
export function describeRealAgents(mode: "tmux" | "pty", limited = false): void {
  const { script: served, seen } = limited ? faultFirst(2, LIMIT, script) : { script, seen: undefined };
  const through = limited ? ", through two 429s in its API's shape, neither blocked nor restarted" : "";
  describe(`real agent CLIs under org up (${mode} panes), behind a scripted model`, () => {
    let org: RealOrg;
    const timeline = startTimeline();
    const agentOf = (cli: Cli) => `${cli}-r-1`;
    // Each CLI's requests are told apart by the role marker its rendered prompt carries.
    const requestsOf = (cli: Cli) =>
      org.server.exchanges.filter((exchange) =>
        exchange.request.tools.length > 0 && exchange.request.system.includes(`# Role marker ${cli}-r\n`));
    const turnOf = (exchange: Exchange) =>
      `${exchange.move.kind}: ${JSON.stringify(exchange.request.turns.at(-1)).slice(0, 300)}`;
    const explain = (cli: Cli) => () =>
      [JSON.stringify(org.status(agentOf(cli))), ...requestsOf(cli).map(turnOf), lastScreens.get(cli) ?? "",
        org.notifications(agentOf(cli))].join("\n");
    const lastScreens = new Map<Cli, string>();
    const waitForRequest = (cli: Cli, what: string, check: (exchange: Exchange) => boolean, timeoutMs = 120_000) =>
      pollUntil(() => requestsOf(cli).find(check),
        { timeoutMs, intervalMs: 200, what: `${cli}: ${what}`, explain: explain(cli) });
    const eachCli = <T>(run: (cli: Cli) => Promise<T>) => Promise.all(CLIS.map(run));

    beforeAll(async () => {
      org = await createRealOrg(CLIS.map((cli) => ({ role: `${cli}-r`, cli, kickoff: KICKOFF })), served, mode);
      const up = await org.up();
      expect(up.code, up.stderr).toBe(0);
      timeline.mark("org", "up");
    }, 120_000);
    const cpu = new Map<Cli, string>();
    afterAll(async () => {
      const figures = CLIS.map((cli) => `${cli} ${cpu.get(cli)}`).join(", ");
      const lines = [...timeline.lines(), `CPU s (to the kill + the resumed run to its turn's end): ${figures}`];
      console.log(`${mode} timeline:\n${lines.join("\n")}`);
      await org?.close();
    });

    test("each role prompt reaches its model, the kickoff is the first user turn, and the CLI's own shell runs org " +
      `submit to a verdict${through}`, async () => {
      await eachCli(async (cli) => {
        const agent = agentOf(cli);
        const verdict = await waitForRequest(cli, "the verdict in the conversation", (exchange) =>
          submitted(exchange.request));
        timeline.mark(cli, "first request", requestsOf(cli)[0]!.at);
        timeline.mark(cli, "verdict", verdict.at);
        const first = requestsOf(cli)[0]!.request;
        expect(first.system).toContain(`# Role marker ${cli}-r\nYou are ${agent}. Edit only params.txt;`);
        expect(first.system).toContain(`run it by its full path instead: \`${join(org.state, "bin/org")}\``);
        expect(userTexts(first)[0], cli).toContain(KICKOFF);
        expect(first.turns.filter((turn) => turn.role === "tool")).toEqual([]);
        const rows = org.results().filter((row) => row[5] === agent);
        expect(rows.map((row) => [row[3], row[4]])).toEqual([["keep", "baseline"], ["keep", "raise to 0.7"]]);
        expect(toolOutputs(verdict.request).join("\n"))
          .toContain(`metric 0.700000 · your best 0.700000 (${rows[1]![0]}) · delta +0.200000 · keep`);
        if (seen) expect(seen.get(cli)!, cli).toBeGreaterThanOrEqual(3);
        if (seen) expect(org.status(agent), cli).toMatchObject({ state: "running", restarts: 0 });
      });
    }, 200_000);

    test("org send reaches each model as a user turn, and the agent reads its inbox", async () => {
      await Promise.all(MESSAGED.map(async (cli) => {
        const agent = agentOf(cli);
        await waitForRequest(cli, "the end of the first turn", (exchange) => exchange.move.kind === "text");
        const sent = await org.org(["send", agent, "try a cosine schedule next"]);
        expect(sent.code, sent.stderr).toBe(0);
        const read = await waitForRequest(cli, "the inbox read", (exchange) =>
          toolOutputs(exchange.request).some((output) => output.includes("try a cosine schedule next")));
        timeline.mark(cli, "inbox read", read.at);
        const notice = "[org] new message from person (note): run `org inbox`";
        expect(userTexts(read.request).some((text) => text.includes(notice))).toBe(true);
        // The turn ends on the pane before the next test kills the CLI: a CLI may write its transcript a moment
        // after the request.
        const ended = async () => {
          lastScreens.set(cli, await org.screen(agent));
          return lastScreens.get(cli)!.includes("Read my inbox.");
        };
        const what = `${cli}: the turn's end on the pane`;
        await pollUntil(ended, { timeoutMs: 30_000, what, explain: explain(cli) });
      }));
    }, 150_000);

    // opencode 1.18.33 drops the kickoff from its resume argv, so the daemon types it at its prompt once: no idle
    // until the 10-minute nudge (the printed figure is 8–10 s on a quiet machine, past 30 s on a loaded one).
    test("kill -9 of each CLI: the supervisor restarts it and it resumes its conversation with the kickoff, typed " +
      "once for opencode", async () => {
      await eachCli(async (cli) => {
        const agent = agentOf(cli);
        const { pid } = org.status(agent);
        expect(pid).toBeGreaterThan(0);
        const before = org.server.exchanges.length;
        cpu.set(cli, cpuSecondsOf(org, agent).toFixed(1));
        const killedAt = Date.now();
        process.kill(pid!, "SIGKILL");
        timeline.mark(cli, "kill", killedAt);
        await pollUntil(() => org.status(agent).restarts >= 1 && org.status(agent).state === "running",
          { timeoutMs: 60_000, intervalMs: 200, what: `${cli}: the restart`, explain: explain(cli) });
        timeline.mark(cli, "restart seen");
        // Resumed with its kickoff as the next user turn, after the conversation it had, the message it read included.
        const resumed = await waitForRequest(cli, "the resumed kickoff", (exchange) =>
          org.server.exchanges.indexOf(exchange) >= before && submittedBefore(exchange.request));
        timeline.mark(cli, "resumed request", resumed.at);
        const figure = `${mode}: opencode resume-to-request: ${resumed.at - killedAt} ms after kill -9`;
        if (cli === "opencode") console.log(figure);
        expect(userTexts(resumed.request).at(-1)).toContain(KICKOFF);
        // The kickoff once at the start and once at the resume: given on the resume argv, or typed once.
        expect(userTexts(resumed.request).filter((text) => text.includes(KICKOFF)), cli).toHaveLength(2);
        if (MESSAGED.includes(cli)) {
          expect(toolOutputs(resumed.request).some((output) => output.includes("try a cosine schedule next")), cli)
            .toBe(true);
        }
        await waitForRequest(cli, "the resumed turn's end", (exchange) =>
          org.server.exchanges.indexOf(exchange) >= before && exchange.move.kind === "text");
        expect(org.status(agent)).toMatchObject({ state: "running", restarts: 1 });
        cpu.set(cli, `${cpu.get(cli)} + ${cpuSecondsOf(org, agent).toFixed(1)}`);
      });
      // Only opencode's resume drops its kickoff: the one typing, logged once.
      const log = readFileSync(join(org.state, "log.md"), "utf8");
      expect(log.match(/resume-kickoff/g), log).toHaveLength(1);
      expect(log).toContain(`after the resume, which dropped the kickoff; typed "${KICKOFF}"`);
    }, 180_000);

    test("org down leaves no process of the org (the CLIs' helpers included)", async () => {
      expect(processesOf(org).length).toBeGreaterThan(0);
      // Gemini CLI runs as one node: its preset keeps it from starting itself again as a child for a bigger heap.
      const geminiNodes = processesOf(org).filter(({ command }) => /^(\S*\/)?node .*\/gemini /.test(`${command} `));
      expect(geminiNodes.map(({ command }) => command.slice(0, 120)), "gemini's node processes").toHaveLength(1);
      const down = await org.org(["down"]);
      expect(down.code, down.stderr).toBe(0);
      await pollUntil(() => processesOf(org).length === 0,
        { timeoutMs: 15_000, what: "no process left", explain: () => JSON.stringify(processesOf(org)) });
    }, 60_000);
  });
}
