export { runDaemon } from "./run-daemon.js";
export { runServices, listServiceTicks, type Service, type ServiceTick } from "./services.js";
export { defineLoop, type LoopSpec } from "./loop-service.js";
