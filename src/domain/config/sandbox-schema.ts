import * as z from "zod";
import { DiskSchema } from "./disk-schema.js";

export const SandboxSchema = z
  .strictObject({
    enabled: z.boolean().optional()
      .describe("run every agent in a bubblewrap (bwrap) sandbox; unset: on where bwrap works, "
        + "with a warning at org up and in org doctor where it does not; true: "
        + "org up refuses to start agents without one; false: never"),
    read: z.array(z.string().min(1)).default([])
      .describe("paths, relative to this file or absolute, that every agent may read although the sandbox hides them "
        + "(other agents' worktrees, a folder in /tmp)")
      .meta({ examples: [["worktrees"]] }),
    write: z.array(z.string().min(1)).default([])
      .describe("paths, relative to this file or absolute, that every agent may write (a shared cache, ~/.cache/uv); "
        + "the host is read-only otherwise; state, worktrees and the repo's .git are refused")
      .meta({ examples: [["data/cache"]] }),
    disk: DiskSchema.optional(),
  })
  .describe("the agents' sandbox: each writes only its worktree and branch, its own state/agents/<agent> folder and "
    + "the paths under write; the rest of the org is read-only, other agents' worktrees hidden, "
    + "and org's own commands run through the daemon");
