import * as z from "zod";
import { duration } from "./duration.js";

export const ClaimsSchema = z
  .strictObject({
    similarity: z.number().gt(0).max(1).default(0.6)
      .describe("a new claim whose words overlap an open claim's or a tried idea's this much "
        + "(Jaccard over word sets, stop words left out) is accepted with a warning naming it")
      .meta({ examples: [0.6] }),
    timeout: duration.default("2h")
      .describe("an open claim with no verdict of its agent after this long closes as expired")
      .meta({ examples: ["2h"] }),
  })
  .describe("the claims board, state/claims.md: `org claim \"idea\"` says what an agent is working on, "
    + "so others pick something else");

/** The claims section with its defaults, present or not. */
export function readClaimSettings(
  config: { claims?: z.output<typeof ClaimsSchema> } | undefined,
): z.output<typeof ClaimsSchema> {
  return config?.claims ?? ClaimsSchema.parse({});
}
