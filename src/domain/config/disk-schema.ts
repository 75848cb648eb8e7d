import * as z from "zod";
import { duration } from "./duration.js";
import { size } from "./size.js";

// Far above what an agent's worktree and folder hold in a normal run (the repo, run logs, a few checkpoints), far
// below a disk: an agent past it is filling the disk for everyone, on purpose or by a runaway loop.
const PER_AGENT = "50G";

export const DiskSchema = z
  .strictObject({
    per_agent: size.default(PER_AGENT)
      .describe("the most one agent may write in its worktree and its state/agents/<agent> folder; past it its "
        + "program is stopped and it is shown blocked until a person restarts it").meta({ examples: ["20G"] }),
    floor: size.optional()
      .describe("free space the verifier keeps on the disk of state/: below it no verify run starts (queued ones wait, "
        + "nothing is lost) until space comes back; default 1G, or a twentieth of a smaller disk")
      .meta({ examples: ["2G"] }),
    every: duration.default("30s")
      .describe("how often every agent's folders are measured; sooner when the disk fills faster than a budget allows"),
  })
  .describe("disk budgets: what each agent may write, and the free space verify runs need; every key has a default");
