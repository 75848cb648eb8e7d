import { expect } from "vitest";
import type { TemplateName } from "../../src/roles/index.js";
import { toolOutputs, type Exchange, type Script } from "./model-server/index.js";
import { pollUntil } from "./poll.js";
import { processesOf, type Cli } from "./real-org.js";
import { createRealTemplateOrg, type TemplateOrg } from "./real-template-org.js";

// The checks the real-templates files share: one org per template run by real CLIs, its outputs and its rows.
export const outputsOf = (exchange: Exchange): string => toolOutputs(exchange.request).join("\n");

/** Up an org of the template, run `check` on it, and take it down whatever happens. */
export async function withOrg(
  template: TemplateName, clis: Record<string, Cli>, script: Script, check: (org: TemplateOrg) => Promise<void>,
  edits: [string, string][] = [],
): Promise<void> {
  const org = await createRealTemplateOrg(template, clis, script, edits);
  try {
    const up = await org.org(["up", "--no-attach"]);
    expect(up.code, up.stderr).toBe(0);
    await check(org);
  } finally {
    await org.close();
  }
  await pollUntil(() => processesOf(org).length === 0,
    { timeoutMs: 15_000, what: "no process of the org left", explain: () => JSON.stringify(processesOf(org)) });
}

/** The first request of `agent` whose tool outputs (all of them, oldest first) satisfy `check`. */
export function waitForOutput(
  org: TemplateOrg, agent: string, what: string, check: (outputs: string) => boolean, timeoutMs = 90_000,
): Promise<Exchange> {
  // On a time-out the last request's tool outputs are shown whole: what the check looked at.
  const last = () => org.requestsOf(agent).at(-1);
  const explain = () =>
    `${org.explain()}\n== ${agent}'s last request's tool outputs:\n${last() ? outputsOf(last()!) : "(no request)"}`;
  return pollUntil(() => org.requestsOf(agent).find((exchange) => check(outputsOf(exchange))),
    { timeoutMs, intervalMs: 250, what: `${agent}: ${what}`, explain });
}

/** The agent's rows of results.tsv: [status, description]. */
export const rowsOf = (org: TemplateOrg, agent: string): string[][] =>
  org.results().filter((row) => row[5] === agent).map((row) => [row[3], row[4]]);
