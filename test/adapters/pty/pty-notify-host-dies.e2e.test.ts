import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { mailPort } from "../../../src/adapters/store/inbox-files.js";
import { Notifier } from "../../../src/daemon/notifier.js";
import { PtyHost } from "../../../src/adapters/pty/host.js";
import { openPtyNoticePort } from "../../../src/adapters/pty/notice-port.js";
import { startPtyServer, type PtyServer } from "../../../src/adapters/pty/server.js";
import { MessagesSchema, type OrgConfig } from "../../../src/domain/config/schema.js";
import { deliverMessage } from "../../../src/domain/messages/deliver.js";
import { pollUntil } from "../../helpers/poll.js";
import { isRunning } from "../../helpers/processes.js";
import { writeRunningStatus } from "../../helpers/screen-panes.js";
import { makeTempDir } from "../../helpers/temp-repo.js";

const BIN = resolve("test/fixtures/bin");
const settings = MessagesSchema.parse({ idle: "200ms", busy_timeout: "5s" });
let host: PtyHost | undefined;
let server: PtyServer | undefined;
let notifier: { stop(): Promise<void> } | undefined;
let dir = "";

afterEach(async () => {
  await notifier?.stop();
  await server?.close();
  await host?.close();
  [notifier, server, host] = [undefined, undefined, undefined];
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  outcome: string;
  ids: string[];
  attempts?: number;
  reason?: string;
}

describe("the daemon's notifier over a pty host whose socket dies", () => {
  test("typed while the host serves; failed once its socket is dead; " +
    "skipped-dead once the program is gone; the messages stay, nothing throws", async () => {
    dir = makeTempDir("org-pty-notify-");
    const state = join(dir, "state");
    const agentDir = join(state, "agents", "alpha");
    mkdirSync(agentDir, { recursive: true });
    host = await PtyHost.create({ cols: 80, rows: 10, killGraceMs: 500 });
    const pane = await host.open({
      argv: [join(BIN, "forever")],
      cwd: dir,
      env: {},
      options: { "@org_agent": "alpha" },
    });
    server = await startPtyServer(host, join(state, "pty.sock"));
    const { pid } = (await host.listAgentPanes())[0]!;
    writeRunningStatus(state, "alpha", pid);
    const said: string[] = [];
    notifier = await Notifier.start({
      record: { root: dir },
      config: { messages: settings } as OrgConfig,
      say: (line) => said.push(line),
      io: openPtyNoticePort(server.path),
    });
    const send = async (body: string) =>
      (
        await deliverMessage(mailPort, state, { from: "person", to: ["alpha"], kind: "note", body }, settings, {
          now: new Date(),
          entropy: randomBytes(4).toString("hex"),
        })
      ).id;
    const outcomes = (): Outcome[] =>
      existsSync(join(agentDir, "notifications.jsonl"))
        ? readFileSync(join(agentDir, "notifications.jsonl"), "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Outcome)
        : [];
    const outcomeOf = (id: string) =>
      pollUntil(() => outcomes().find((outcome) => outcome.ids.includes(id)), {
        what: `the outcome of ${id}`,
        timeoutMs: 10_000,
      });

    const first = await send("while the host serves");
    expect(await outcomeOf(first)).toMatchObject({ outcome: "typed", attempts: 1 });
    expect(host.screen(pane)).toContain("[org] new message from person (note): run `org inbox`");

    // The host's socket dies while the agent's program keeps running in its pane.
    await server.close();
    server = undefined;
    const second = await send("while the socket is dead");
    expect(await outcomeOf(second)).toMatchObject({
      outcome: "failed",
      attempts: 2,
      reason: "the paste did not reach the pane",
    });
    // Said once, and nothing else: a dead socket is an outcome, never an error thrown out of the notifier.
    expect(said).toEqual([
      "notify alpha: the pane did not take the notification, twice (the paste did not reach the pane); " +
        "the message stays in its inbox",
    ]);

    await host.close();
    await pollUntil(() => !isRunning(pid), { what: "alpha's program gone with its host" });
    const third = await send("once the host is gone");
    expect(await outcomeOf(third)).toMatchObject({ outcome: "skipped-dead", reason: "its program has exited" });
    for (const id of [first, second, third]) expect(existsSync(join(agentDir, "inbox", `${id}.md`))).toBe(true);
    expect(said).toHaveLength(1);
  });
});
