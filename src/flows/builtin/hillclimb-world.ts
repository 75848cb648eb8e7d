// `org builtin hillclimb`'s real world: files on disk, `org submit` as a child process, and what it reads of its org.
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { bestBranchOf, filterOwnHalf, findHalf } from "../../domain/config-versions/ab-run-record.js";
import { OrgError } from "../../domain/errors.js";
import { parseFocus, seededRng, type HillclimbWorld, type Rng } from "../../roles/index.js";
import { readAbRun } from "../../adapters/store/ab-run.js";
import { readText, writeText } from "../../adapters/fs/files.js";
import { moveOntoBest } from "../../adapters/git/follow-best.js";
import { readJudgedTrees } from "../../adapters/store/judged-trees.js";
import { listFrontierNews } from "../../adapters/store/frontier-news.js";
import { readTriedLedger } from "../../adapters/store/tried-ledger-file.js";
import { PACKAGE_ROOT } from "../../adapters/package-root.js";
import { processRunner, type Runner } from "../../adapters/process.js";

type Env = Record<string, string | undefined>;

/** The real world of the baseline: files on disk and `org submit` as a child process. */
export function hillclimbWorld(runner: Runner = processRunner): HillclimbWorld {
  return {
    readText,
    writeText,
    async submit(argv, cwd) {
      // In the agent's own process group: stopping the agent stops a submit it is waiting on.
      const result = await runner.run(argv, { cwd, sameGroup: true });
      const output = `${result.stdout}${result.stderr}`.trimEnd();
      return { spawnError: result.spawnError, output, exit: result.signal ?? result.exitCode };
    },
    delay: (ms) => delay(ms),
  };
}

/**
 * What the baseline reads of the org it runs in: its inbox, its task, the org best ref and the ledger; nothing
 * outside an org. ORG_HILLCLIMB_FOLLOW=0 keeps it on its own best; ORG_HILLCLIMB_TRIED=0 proposes without the ledger.
 */
export function orgWorld(env: Env): Partial<HillclimbWorld> {
  const { ORG_NAME: name, ORG_INBOX: inbox, ORG_STATE: state, ORG_AGENT: agent = "", ORG_TASK: task } = env;
  const follow = env.ORG_HILLCLIMB_FOLLOW !== "0";
  const consult = env.ORG_HILLCLIMB_TRIED !== "0";
  // In an A/B run each half follows its own best.
  const bestRef = async (org: string) =>
    `refs/heads/${bestBranchOf(org, state ? findHalf(await readAbRun(state), agent) : undefined)}`;
  return {
    ...(task ? { readFocus: async () => parseFocus((await readText(task)) ?? "") } : {}),
    ...(inbox && follow ? { listFrontierNews: () => listFrontierNews(inbox) } : {}),
    ...(name && follow ? { moveOntoBest: async (cwd: string) => moveOntoBest(cwd, await bestRef(name)) } : {}),
    ...(state && consult ? { listTried: async (cwd: string) => {
      const trees = await readJudgedTrees(cwd, state, agent);
      // In an A/B run a half skips only what its own half tried, as the verifier answers only from it.
      const entries = filterOwnHalf(await readAbRun(state), agent, (await readTriedLedger(state)).entries);
      const judged = entries.filter((entry) => entry.change !== undefined && trees.has(entry.change.tree));
      return new Set(judged.map((entry) => entry.description));
    } } : {}),
  };
}

// ORG_DEMO_SEED: each agent draws from the seed and its own name, so a seeded demo org replays the same proposals.
export function seededRngFor(env: Env): Rng | undefined {
  const seed = env.ORG_DEMO_SEED;
  if (seed === undefined || seed === "" || !Number.isInteger(Number(seed))) return undefined;
  const agent = env.ORG_AGENT ?? "";
  let hash = Number(seed);
  for (const char of agent) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return seededRng(hash);
}

/**
 * The argv of an org command from an agent: in a sandbox the agent's `org` (the daemon runs it), else this package's
 * own, by the current Node.
 */
export function defaultOrgArgv(env: Env = process.env): string[] {
  if (env.ORG_OUTBOX && env.ORG_STATE) return [join(env.ORG_STATE, "bin", "org")];
  return [process.execPath, join(PACKAGE_ROOT, "bin", "org.js")];
}

/** `ORG_SUBMIT` as a JSON argv, else `org submit` as defaultOrgArgv runs it. */
export function defaultSubmitArgv(env: Env = process.env): string[] {
  const configured = env.ORG_SUBMIT;
  if (configured === undefined || configured === "") return [...defaultOrgArgv(env), "submit"];
  let parsed: unknown;
  try {
    parsed = JSON.parse(configured);
  } catch {
    parsed = undefined;
  }
  const strings = Array.isArray(parsed) && parsed.length > 0
    && parsed.every((item) => typeof item === "string" && item !== "");
  if (!strings) {
    const example = `such as ["org","submit"], got ${configured}`;
    throw new OrgError(`ORG_SUBMIT must be a JSON array of strings ${example}`, "hillclimb");
  }
  return parsed as string[];
}
