// Verdicts are a quiet kind by default; the one `org submit --no-wait` asked for is announced in the pane all the same.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { mailPort } from "../../../src/adapters/store/inbox-files.js";
import { Notifier } from "../../../src/daemon/notifier.js";
import { MessagesSchema, type OrgConfig } from "../../../src/domain/config/schema.js";
import { deliverMessage } from "../../../src/domain/messages/deliver.js";
import type { NoticePort } from "../../../src/domain/ports.js";
import { pollUntil } from "../../helpers/poll.js";
import { writeRunningStatus } from "../../helpers/screen-panes.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const settings = MessagesSchema.parse({ idle: "200ms", busy_timeout: "5s" });
let notifier: { stop(): Promise<void> } | undefined;
let dir = "";

afterEach(async () => {
  await notifier?.stop();
  notifier = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One agent's pane in memory: a paste sits in its input line until Enter moves it up. */
function fakePane(): { io: NoticePort; entered: string[] } {
  const entered: string[] = [];
  let input = "";
  const io: NoticePort = {
    listAgentPanes: async () => new Map([["alpha", "%1"]]),
    look: async (panes) =>
      new Map(
        panes.map((pane) => [pane, { text: `0,0\n${entered.join("\n")}\n> ${input}`, dead: false, agent: "alpha" }]),
      ),
    paste: async (_pane, line) => ((input += line), true),
    pressEnter: async () => (entered.push(input), (input = ""), true),
    close: () => undefined,
  };
  return { io, entered };
}

describe("the notifier and verdicts", () => {
  test("a verdict marked notify: always is typed; a plain verdict stays quiet", async () => {
    dir = makeTempDir("org-notify-verdict-");
    const state = join(dir, "state");
    const agentDir = join(state, "agents", "alpha");
    writeRunningStatus(state, "alpha", process.pid);
    const pane = fakePane();
    notifier = await Notifier.start({
      record: { root: dir },
      config: { messages: settings } as OrgConfig,
      say: () => undefined,
      io: pane.io,
    });
    const send = async (extra?: Record<string, string>) =>
      (
        await deliverMessage(
          mailPort,
          state,
          { from: "verifier", to: ["alpha"], kind: "verdict", body: "metric 1.0", ...(extra ? { extra } : {}) },
          settings,
          { now: new Date(), entropy: randomBytes(4).toString("hex") },
        )
      ).id;
    const quiet = await send();
    const asked = await send({ experiment: "2026-12-02T00-00-00-000Z-alpha-abcdef0", notify: "always" });
    const outcomes = () =>
      existsSync(join(agentDir, "notifications.jsonl"))
        ? readFileSync(join(agentDir, "notifications.jsonl"), "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { outcome: string; ids: string[] })
        : [];
    await pollUntil(() => outcomes().length > 0, { what: "a notification" });
    expect(outcomes()).toEqual([expect.objectContaining({ outcome: "typed", ids: [asked] })]);
    expect(pane.entered).toEqual(["[org] new message from verifier (verdict): run `org inbox`"]);
    expect(outcomes().flatMap((outcome) => outcome.ids)).not.toContain(quiet);
  });
});
