// runInPane drops a job in the agent's folder under the jobs folder, which the run-jobs agent makes when its pane
// starts: under load the test often comes first, and the folder must still be the agent's, or its jobs never run.
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runInPane } from "../helpers/pane-jobs.js";
import { handOver, IDENTITIES, runAs } from "./identities.js";

// What run-jobs does with each job it finds, once: taken (renamed), run, its exit status written last.
const TAKE_JOBS = `cd "$1" && for job in *.sh; do name=\${job%.sh}; mv "$job" "$name.run" || exit 1
sh "$name.run" > "$name.out" 2> "$name.err"; echo $? > "$name.code" && mv "$name.code" "$name.rc"; done`;

let jobs: string | undefined;
afterEach(() => {
  if (jobs) rmSync(jobs, { recursive: true, force: true });
  jobs = undefined;
});

describe.each(IDENTITIES)("a pane's jobs, as $name", (who) => {
  test("a job dropped before the pane made its folder is taken and run there", async () => {
    jobs = realpathSync(mkdtempSync(join(tmpdir(), "org-pane-jobs-")));
    handOver(who, jobs);
    const ran = runInPane(jobs, "a-1", "echo ran");
    expect(statSync(join(jobs, "a-1")).uid).toBe(statSync(jobs).uid);
    const taken = runAs(who, ["sh", "-c", TAKE_JOBS, "sh", join(jobs, "a-1")], { cwd: jobs });
    expect(taken.code, taken.stderr).toBe(0);
    expect(await ran).toEqual({ code: 0, stdout: "ran\n", stderr: "" });
  });
});
