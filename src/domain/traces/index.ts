// `org traces`: each agent's CLI transcript as a timeline, split per experiment, beside the org's verdicts.
export type { AgentTrace, TraceEvent } from "./events.js";
export { traceFormatOf, type TraceFormat } from "./trace-formats.js";
export { splitExperiments, listDiverged, type ExperimentTrace, type TracedResult } from "./experiments.js";
export { traceDiverged, traceExperiments } from "./agent-experiments.js";
export { compileGrep, eventText, findExperiment, parseSince, selectEvents, selectSince } from "./filters.js";
