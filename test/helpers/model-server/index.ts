export { answerSide, startModelServer, type ModelServer, type ModelServerOptions } from "./server.js";
export { sampleOf } from "./gemini.js";
export { earlierToolOutputs, latestUserTurn, reactions, toolOutputs, userTexts, type Reaction } from "./scripts.js";
export type { ApiName, Exchange, ModelRequest, Move, Script, Turn, Usage } from "./types.js";
export { startTimeline, type Timeline } from "./timeline.js";
