import * as z from "zod";

const DURATION = "a number of seconds or a duration such as 90s, 10m or 1h";

/** A duration key of org.yaml: seconds as a number, or a string with a unit; parseDuration reads it. */
export const duration = z
  .union(
    [z.number().positive(), z.string().regex(/^\d+(\.\d+)?(ms|s|m|h)$/, { message: DURATION })],
    { error: DURATION },
  )
  .describe("a duration: seconds as a number, or a string such as 500ms, 90s, 10m, 1h");
