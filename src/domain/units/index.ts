// Durations, sizes and times of day as people write them: zod-free, so a command that only prints them loads no schema.
export { parseDuration } from "./parse-duration.js";
export { formatSize } from "./format-size.js";
export { formatClock } from "./format-clock.js";
