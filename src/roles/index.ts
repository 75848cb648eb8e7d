// The roles folder's public surface: the role catalogue, the templates and starter built from it,
// prompt rendering and the built-in baseline agent.
export {
  ROLE_KINDS, findKindByPrompt, formatEdits, listRoles, readRole, type MetaRole, type PromptedKind, type PromptedRole,
  type RoleEntry, type RoleKind,
} from "./catalogue.js";
export { renderPrompt, type PromptContext } from "./render.js";
export { renderStarter } from "./starter.js";
export type { StarterFields } from "./starter-yaml.js";
export {
  TEMPLATES, readTopology, renderTemplate, type Template, type TemplateName, type Topology,
} from "./templates.js";
export { TEMPLATE_NAMES } from "./templates.js";
export {
  BROWSER_RUNNER, SCRIPT_RUNNER, SUITE_MIN_ASSERTIONS, renderSoftwareYaml, type SoftwareFacts,
} from "./software-yaml.js";
export { runHillclimb, type HillclimbEnd, type HillclimbOptions, type HillclimbWorld } from "./builtin/hillclimb.js";
export { runChief, type ChiefEnd, type ChiefOptions, type ChiefWorld } from "./builtin/chief.js";
export {
  assignFocus, formatFocusTask, parseFocus, scoreConstants, type Assignment, type ConstantScore, type JudgedChange,
} from "./builtin/chief-plan.js";
export {
  findConstants, proposeChange, proposeUntried, seededRng, type NumericConstant, type Proposal, type Rng,
} from "./builtin/hillclimb-step.js";
