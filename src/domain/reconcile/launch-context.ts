import type { LaunchContext } from "../lifecycle/plan-agents.js";
import type { LaunchSpec } from "../state.js";

/**
 * The context the running org was launched with, read back from its launch.json files: `org reload` from
 * another shell (another PATH, another node) must not restart every agent for a difference org.yaml never made.
 */
export function inferLaunchContext(
  launches: { spec: LaunchSpec | null; builtin?: string }[], fallback: LaunchContext,
): LaunchContext {
  const prefix = `${fallback.binDir}:`;
  const path = launches.map(({ spec }) => spec?.env.PATH).find((value) => value?.startsWith(prefix));
  const builtin = launches.find(({ spec, builtin }) =>
    builtin && spec && spec.argv.length > 2 && spec.argv.at(-2) === "builtin" && spec.argv.at(-1) === builtin);
  return {
    ...fallback,
    basePath: path === undefined ? fallback.basePath : path.slice(prefix.length),
    orgArgv: builtin?.spec ? builtin.spec.argv.slice(0, -2) : fallback.orgArgv,
  };
}
