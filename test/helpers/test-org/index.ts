// The one builder of test orgs: createTestOrg, with options for what differs (a template, another identity, the
// demo, no daemon). The folder's public surface; the verifier's loop played by the test is createVerifierOrg in
// verifier-loop.ts, imported apart so that a file which ticks no verifier loads none of its ~210 modules.
import type { Identity, OrgAs } from "../../security/identities.js";
import { createDemoFolderOrg, type DemoOptions, type DemoOrg } from "./demo.js";
import { createOrgOnDisk, type OnDiskOptions, type OrgOnDisk } from "./on-disk.js";
import type { TestOrg } from "./pane.js";
import { createRepoOrg, createRepoOrgAs, type RepoOptions } from "./repo.js";
import { createTemplateRepoOrg, type TemplateOptions } from "./template.js";

export {
  bin, describeOrgProcesses, idleOrgYaml, jobsOrgYaml, PROMPT, printerOrgYaml, readJsonFile, readOrgSnapshot,
  readResultRows, teardownOrg, tmux, type TestOrg,
} from "./pane.js";
export { upUntilBaselines, upUntilRunning } from "./baselines.js";
export { replaceExactly, swapRuntime, templatePath } from "./template.js";
export type { DemoOrg, DemoOptions, OrgOnDisk };
export type { OrgYaml, RepoOptions } from "./repo.js";

/** A repo with this org.yaml, made and owned by `as`. */
export function createTestOrg(options: RepoOptions & { as: Identity }): OrgAs;
/** A repo with this org.yaml and files, committed on main. */
export function createTestOrg(options: RepoOptions): TestOrg;
/** A repo set up by `org init --template`, then org.yaml edited. */
export function createTestOrg(options: TemplateOptions): TestOrg;
/** The demo's folder, for `org demo`. */
export function createTestOrg(options: { demo: DemoOptions }): DemoOrg;
/** No daemon: the agents' worktrees and state/org.json, as `org up` leaves them. */
export function createTestOrg(options: OnDiskOptions): OrgOnDisk;
export function createTestOrg(
  options:
    | (RepoOptions & { as?: Identity }) | TemplateOptions | { demo: DemoOptions } | OnDiskOptions,
): TestOrg | OrgAs | DemoOrg | OrgOnDisk {
  if ("demo" in options) return createDemoFolderOrg(options.demo);
  if ("template" in options) return createTemplateRepoOrg(options);
  if ("daemon" in options) return createOrgOnDisk(options);
  return options.as ? createRepoOrgAs(options.as, options) : createRepoOrg(options);
}
