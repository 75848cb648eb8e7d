import { PRESET_NAMES, type PresetName } from "../runtimes/runtime-presets.js";
import { RuntimeSchema, type OrgConfig } from "./schema.js";

export type AgentPreset = Exclude<PresetName, "generic">;

// generic starts no program of its own, so a role can only use it through an entry that gives a command.
export const AGENT_PRESETS: readonly AgentPreset[] = PRESET_NAMES.filter((name): name is AgentPreset =>
  name !== "generic");

export function isAgentPreset(name: string): name is AgentPreset {
  return (AGENT_PRESETS as readonly string[]).includes(name);
}

/** The "normalize defaults" step of loading: what org.yaml leaves implicit, written out for everything downstream. */
export function normalizeDefaults(config: OrgConfig): OrgConfig {
  return { ...config, runtimes: addPresetRuntimes(config) };
}

/**
 * A role (or the judge) whose runtime names a preset with no runtimes entry of that name runs `{preset: <name>}`,
 * so plan, launch specs, reload and doctor all see a real entry. An entry of that name, whatever it says, wins.
 */
function addPresetRuntimes(config: OrgConfig): OrgConfig["runtimes"] {
  const named = new Set(Object.values(config.roles).map((role) => role.runtime));
  // The judge runs a preset as a role would: its entry is made the same way.
  if (config.verify?.judge) named.add(config.verify.judge.runtime);
  // Object.hasOwn: a role's runtime "constructor" must not find the prototype's.
  const implied = [...named].filter((name) => isAgentPreset(name) && !Object.hasOwn(config.runtimes, name));
  return {
    ...config.runtimes,
    ...Object.fromEntries(implied.map((name) => [name, RuntimeSchema.parse({ preset: name })])),
  };
}
