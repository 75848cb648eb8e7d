import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { earlierToolOutputs, reactions, toolOutputs, userTexts, type Exchange } from "../helpers/model-server/index.js";
import { pollUntil } from "../helpers/poll.js";
import { createRealOrg, type RealOrg } from "../helpers/real-org.js";

// The real opencode 1.18.33 behind the scripted model: it ignores --prompt when it continues a session, so after a
// crash the daemon types the kickoff once the resumed CLI shows its prompt, instead of leaving it idle until the nudge.
const KICKOFF = "Begin the research.";
const MARKER = "first-turn-marker-7f3";
const AGENT = "opencode-r-1";
const script = reactions([
  { when: (text, request) => text.includes(KICKOFF) && earlierToolOutputs(request).some((out) => out.includes(MARKER)), commands: [], done: "Resumed." },
  { when: (text) => text.includes(KICKOFF), commands: [`echo ${MARKER}`], done: "First turn done." },
]);

describe("a resumed opencode gets its kickoff typed", () => {
  let org: RealOrg | undefined;
  afterAll(async () => org?.close());

  // Proves no idle until the 10-minute nudge, not a latency: 8–10 s on a quiet machine (the printed figure), past 30 s
  // where the box is loaded and opencode's own start slows.
  test("after kill -9 the next model request comes long before the nudge, carries the conversation, typed once", async () => {
    org = await createRealOrg([{ role: "opencode-r", cli: "opencode", kickoff: KICKOFF }], script);
    const up = await org.up();
    expect(up.code, up.stderr).toBe(0);
    const main = () => org!.server.exchanges.filter((exchange) => exchange.request.tools.length > 0);
    let screen = "";
    const turns = (exchange: Exchange) => JSON.stringify(exchange.request.turns.at(-1)).slice(0, 200);
    const explain = () => `${JSON.stringify(org!.status(AGENT))}\n${main().map(turns).join("\n")}\n${screen}`;
    const wait = { intervalMs: 200, explain };
    await pollUntil(() => main().some((exchange) => exchange.move.kind === "text"), { ...wait, timeoutMs: 60_000, what: "the first turn" });
    // The turn's end on the pane: opencode writes its session a moment after the request.
    const shown = async () => (screen = await org!.screen(AGENT)).includes("First turn done.");
    await pollUntil(shown, { ...wait, timeoutMs: 20_000, what: "the first turn on the pane" });
    const before = main().length;
    const killedAt = Date.now();
    process.kill(org.status(AGENT).pid!, "SIGKILL");
    const resumed = await pollUntil(() => main()[before], { ...wait, timeoutMs: 120_000, what: "a request after the restart" });
    console.log(`opencode resume-to-request: ${resumed.at - killedAt} ms after kill -9`);
    expect(toolOutputs(resumed.request).some((output) => output.includes(MARKER))).toBe(true);
    expect(userTexts(resumed.request).filter((text) => text.includes(KICKOFF))).toHaveLength(2);
    const answered = () => main().slice(before).some((exchange) => exchange.move.kind === "text");
    await pollUntil(answered, { ...wait, timeoutMs: 20_000, what: "the resumed turn's end" });
    const log = readFileSync(join(org.state, "log.md"), "utf8");
    expect(log.match(/resume-kickoff/g), log).toHaveLength(1);
    expect(log).toContain(`after the resume, which dropped the kickoff; typed "${KICKOFF}"`);
    expect(org.status(AGENT)).toMatchObject({ state: "running", restarts: 1 });
  }, 240_000);
});
