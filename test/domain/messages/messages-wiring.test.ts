import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { mayMessage, resolveRecipients, type Sender } from "../../../src/domain/messages/wiring.js";
import { problemsOf } from "../../fixtures/configs/fake-probe.js";

const config = ConfigSchema.parse({
  runtimes: { bot: { command: ["bot"] } },
  roles: {
    planner: { prompt: "p.md", runtime: "bot" },
    generator: { prompt: "p.md", runtime: "bot", reports_to: "planner", talks_to: ["evaluator"] },
    evaluator: { prompt: "p.md", runtime: "bot", reports_to: "planner" },
    junior: { prompt: "p.md", runtime: "bot", count: 3 },
  },
});
const agent = (name: string, role: string): Sender => ({ kind: "agent", agent: name, role });

describe("the wiring rule", () => {
  test.each([
    ["generator", "generator", true, "its own role"],
    ["generator", "evaluator", true, "talks_to"],
    ["generator", "planner", true, "the role it reports to"],
    ["planner", "generator", true, "a role that reports to it"],
    ["evaluator", "generator", false, "talks_to is one-way"],
    ["junior", "planner", false, "no wiring at all"],
    ["nobody", "planner", false, "an unknown role"],
  ])("%s → %s: %s (%s)", (from, to, allowed) => {
    expect(mayMessage(config.roles, from, to)).toBe(allowed);
  });

  test("a role fans out to its agents, without the sender", () => {
    expect(resolveRecipients(config, agent("junior-2", "junior"), "junior")).toEqual({
      ok: true,
      agents: ["junior-1", "junior-3"],
      role: "junior",
    });
    expect(resolveRecipients(config, { kind: "person" }, "junior")).toEqual({
      ok: true,
      agents: ["junior-1", "junior-2", "junior-3"],
      role: "junior",
    });
    expect(resolveRecipients(config, agent("generator-1", "generator"), "evaluator-1")).toEqual({
      ok: true,
      agents: ["evaluator-1"],
      role: "evaluator",
    });
  });

  test("people may message anyone", () => {
    expect(resolveRecipients(config, { kind: "person" }, "planner-1")).toMatchObject({
      ok: true,
      agents: ["planner-1"],
    });
  });

  test("an unwired recipient is refused, naming the wiring to add", () => {
    expect(resolveRecipients(config, agent("evaluator-1", "evaluator"), "generator")).toEqual({
      ok: false,
      reason: "evaluator-1 may not message generator: role evaluator is not wired to role generator — "
        + "add talks_to: [generator] to roles.evaluator in org.yaml",
    });
  });

  test("an unknown recipient gets a did-you-mean, or the list of roles", () => {
    expect(resolveRecipients(config, { kind: "person" }, "junor")).toEqual({
      ok: false,
      reason: 'no agent or role named "junor" in org.yaml — did you mean "junior"?',
    });
    expect(resolveRecipients(config, { kind: "person" }, "xyz")).toEqual({
      ok: false,
      reason: 'no agent or role named "xyz" in org.yaml — name a role (planner, generator, evaluator, junior) '
        + 'or one of its agents, such as planner-1',
    });
  });

  test("a name with ../ or a slash is refused before anything is looked up", () => {
    expect(resolveRecipients(config, { kind: "person" }, "../junior-1")).toEqual({
      ok: false,
      reason: 'recipient "../junior-1" contains ".", "/" — name an agent such as planner-1 or a role such as planner',
    });
    expect(resolveRecipients(config, { kind: "person" }, "junior/1")).toEqual({
      ok: false,
      reason: 'recipient "junior/1" contains "/" — name an agent such as planner-1 or a role such as planner',
    });
  });
});

const WIRED = `runtimes:
  mybot:
    command: [mybot]
roles:
  chief:
    prompt: prompts/researcher.md
    runtime: mybot
  junior:
    prompt: prompts/researcher.md
    runtime: mybot
    reports_to: chief
    talks_to: [chief]
`;

describe("org.yaml wiring rules", () => {
  test("valid wiring loads", async () => {
    expect(await problemsOf(WIRED)).toEqual([]);
  });

  test("reports_to naming an unknown role, with a did-you-mean", async () => {
    expect(await problemsOf(WIRED.replace("reports_to: chief", "reports_to: chef"))).toEqual([
      'org.yaml:11:17: roles.junior.reports_to names "chef", which is not a role — did you mean "chief"?',
    ]);
  });

  test("talks_to naming a role far from any, listing the roles", async () => {
    expect(await problemsOf(WIRED.replace("talks_to: [chief]", "talks_to: [chief, evaluator]"))).toEqual([
      'org.yaml:12:23: roles.junior.talks_to[1] names "evaluator", which is not a role — '
        + 'name one of the roles: chief, junior',
    ]);
  });

  test("unsafe names in the wiring", async () => {
    const unsafe = WIRED.replace("reports_to: chief", "reports_to: ../chief")
      .replace("talks_to: [chief]", 'talks_to: ["a/b"]');
    expect(await problemsOf(unsafe)).toEqual([
      'org.yaml:11:17: roles.junior.reports_to "../chief" contains ".", "/" — name one of the roles: chief, junior',
      'org.yaml:12:16: roles.junior.talks_to[0] "a/b" contains "/" — name one of the roles: chief, junior',
    ]);
  });

  test("a reports_to cycle is reported once", async () => {
    const cycle = WIRED.replace("    runtime: mybot\n  junior:",
      "    runtime: mybot\n    reports_to: junior\n  junior:");
    expect(await problemsOf(cycle)).toEqual([
      "org.yaml:8:17: roles.chief.reports_to makes a cycle: chief → junior → chief — "
        + "remove reports_to from one of these roles; the top of the org reports to no one",
    ]);
  });

  test("a role reporting to itself is a cycle", async () => {
    expect(await problemsOf(WIRED.replace("reports_to: chief", "reports_to: junior"))).toEqual([
      "org.yaml:11:17: roles.junior.reports_to makes a cycle: junior → junior — "
        + "remove reports_to from one of these roles; the top of the org reports to no one",
    ]);
  });
});
