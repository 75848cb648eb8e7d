import { parseDuration, reloadSettings, type LoadedConfig } from "../../domain/config/index.js";
import { orgPaths } from "../../domain/paths.js";
import { checkMetaEdit, checkMetaRate, describeAction, listConfigFiles } from "../../domain/reconcile/index.js";
import type { World } from "../../domain/world.js";
import { reloadOrg } from "./reload-org.js";
import {
  copyFiles, diffFiles, findChangedFiles, hashFiles, hasProposal, loadProposal, proposalDir, readProposalBase,
  readProposalTemplate, seedProposal,
} from "./proposal.js";
import { logReload, markMetaApplied, readReloadRecord } from "./reload-log.js";
import { readOptionalRecord } from "../../adapters/store/org-record.js";

/** What `org reload` run by a meta agent prints: the outcome and its lines. */
export interface MetaReply {
  outcome: "seeded" | "applied" | "unchanged" | "rejected" | "busy";
  lines: string[];
}

/**
 * A meta agent's proposal: its copy of org.yaml and the prompts, checked like any edit (validation, reconcile,
 * GPU leases) plus the meta rules (its role's edits, verify untouched, the rate limit, a copy not stale),
 * then copied over the org's files and applied. Every applied or rejected proposal is in log.md with its diff.
 */
export async function applyMetaEdit(
  world: World, root: string, agent: string, current: { loaded: LoadedConfig } | { problems: string[] },
): Promise<MetaReply> {
  const paths = orgPaths(root);
  const dir = proposalDir(paths.state, agent);
  const by = `meta edit by ${agent}`;
  const reject = async (problems: string[], diff?: string): Promise<MetaReply> => {
    await logReload(paths.state, {
      at: world.now().toISOString(), op: "reload-rejected", title: `${by}: rejected; nothing changed`,
      body: [...problems, ...(diff ? ["", diff] : [])].join("\n"),
    });
    return { outcome: "rejected", lines: problems };
  };
  if ("problems" in current) return reject([
    "the org's own org.yaml is invalid (a person is editing it) — try again once `org validate` passes",
    ...current.problems,
  ]);
  const record = await readOptionalRecord(paths.root);
  const self = record?.agents.find((entry) => entry.name === agent);
  if (!self) return reject([`no agent named ${agent} runs in this org — run \`org reload\` from a meta agent's pane`]);
  const { config } = current.loaded;
  const allowed = checkMetaEdit({ agent, role: self.role, config, changed: [], verifyChanged: false });
  if (!allowed.ok) return reject([allowed.reason]);
  const files = listConfigFiles(config);
  const seeded = [
    `your copy of the org's config is in ${dir}: ${files.join(", ")} — edit it there, then run \`org reload\` again`,
  ];
  if (!(await hasProposal(paths.state, agent))) {
    await seedProposal(root, paths.state, agent, files);
    return { outcome: "seeded", lines: seeded };
  }
  // The agent writes its copy: a link or a special file there is refused by name, never read through.
  const read = await readCopy(root, dir, files).catch((error: Error) => error);
  const putBack = "your copy holds plain files only: put the file back, then run `org reload` again";
  if (read instanceof Error) return reject([`${read.message} — ${putBack}`]);
  const { proposed, changed, diff } = read;
  if (changed.length === 0) return {
    outcome: "unchanged", lines: ["nothing to do: your copy matches the org's config — edit it first", ...seeded],
  };
  if ((await readProposalBase(paths.state, agent)) !== (await hashFiles(root, files))) {
    const rejected = await reject([
      "the org's config changed since your copy was made (a person or another meta agent edited it) — "
        + "your copy was refreshed from the org: redo your edit there and run `org reload` again",
    ], diff);
    await seedProposal(root, paths.state, agent, files);
    return rejected;
  }
  if (!proposed.ok) return reject(proposed.problems, diff);
  const check = checkMetaEdit({
    agent, role: self.role, config, changed,
    verifyChanged: JSON.stringify(config.verify) !== JSON.stringify(proposed.loaded.config.verify),
  });
  if (!check.ok) return reject([check.reason], diff);
  const minIntervalMs = parseDuration(reloadSettings(config).min_interval);
  const outcome = await reloadOrg(world, {
    root, read: { loaded: proposed.loaded }, by, apply: true, meta: { diff },
    readTemplate: readProposalTemplate(root, dir),
    guard: async () => {
      const rate = checkMetaRate(world.now(), (await readReloadRecord(paths.state))?.lastMetaAt, minIntervalMs);
      return rate.ok ? undefined : rate.reason;
    },
    beforeApply: () => copyFiles(dir, root, changed),
  });
  if (outcome.kind === "busy") return { outcome: "busy", lines: [`${outcome.reason} — try again in a moment`] };
  if (outcome.kind === "rejected") return { outcome: "rejected", lines: outcome.problems };
  await markMetaApplied(paths.state, world.now().toISOString());
  await seedProposal(root, paths.state, agent, listConfigFiles(proposed.loaded.config));
  const actions = outcome.kind === "applied"
    ? outcome.actions.map(describeAction)
    : ["= nothing to do: the running org already matched"];
  return {
    outcome: "applied", lines: [`applied ${changed.join(", ")} to the org:`, ...actions.map((line) => `  ${line}`)],
  };
}

/** The copy as loaded, the files it changes and their diff. */
async function readCopy(root: string, dir: string, files: string[]) {
  const proposed = await loadProposal(root, dir);
  const touched = [...new Set([...files, ...(proposed.ok ? listConfigFiles(proposed.loaded.config) : [])])];
  const changed = await findChangedFiles(root, dir, touched);
  return { proposed, changed, diff: changed.length > 0 ? await diffFiles(root, dir, changed) : "" };
}
