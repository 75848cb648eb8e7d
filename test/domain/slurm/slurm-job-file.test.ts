// state/slurm/<agent>/ through its owner: the job request and the job last seen, good, damaged and missing.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import {
  loadJobRequest, readJobRecord, writeJobRecord, writeJobRequest, type SlurmJobRecord,
} from "../../../src/domain/slurm/slurm-job-file.js";
import type { SlurmJobRequest } from "../../../src/domain/slurm/job-argv.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const REQUEST = {
  org: "toy", agent: "r-1", gpu: true, output: "/shared/r-1.out", cwd: "/work", settings: { partition: "gpu" },
  launch: { argv: ["claude"], cwd: "/work", env: { HOME: "/home/r-1" } }, resume: ["claude", "--continue"],
} as unknown as SlurmJobRequest;
const RECORD: SlurmJobRecord = {
  id: "42", status: "running on n1", updatedAt: "2026-01-07T10:00:00.000Z",
  job: { id: "42", name: "org-toy-r-1", comment: "org", kind: "running", node: "n1", gpus: [0] },
};

function put(name: string, text: string): string {
  mkdirSync(join(state!, "slurm", "r-1"), { recursive: true });
  writeFileSync(join(state!, "slurm", "r-1", name), text);
  return join(state!, "slurm", "r-1", name);
}

test("the request and the job are written and read back whole; none before `org up` and the first look", async () => {
  state = makeTempDir("org-slurm-files-");
  const request = join(state, "slurm", "r-1", "slurm.json");
  expect(await loadJobRequest(filesPort, state, "r-1")).toBe(`no ${request} — run \`org up\` again`);
  expect(await readJobRecord(filesPort, state, "r-1")).toBeUndefined();
  await writeJobRequest(filesPort, state, "r-1", REQUEST);
  await writeJobRecord(filesPort, state, "r-1", RECORD);
  expect(await loadJobRequest(filesPort, state, "r-1")).toEqual(REQUEST);
  expect(await readJobRecord(filesPort, state, "r-1")).toEqual(RECORD);
});

test.each([
  ["cut short", '{"org": "toy", "agen', "cut short or not JSON"],
  ["with a launch of another shape", JSON.stringify({ ...REQUEST, launch: { argv: "claude" } }), "of another shape"],
])("a request %s is refused with its fix, and left as it was", async (_, text, why) => {
  state = makeTempDir("org-slurm-files-");
  const file = put("slurm.json", text);
  expect(await loadJobRequest(filesPort, state, "r-1")).toBe(`${file} is ${why} — run \`org up\` again`);
  expect(readFileSync(file, "utf8")).toBe(text);
});

test.each([
  ["cut short", '{"id": "42", "stat'],
  ["a running job without its GPUs", JSON.stringify({ ...RECORD, job: { ...RECORD.job, gpus: undefined } })],
  ["of another kind", JSON.stringify({ ...RECORD, job: { ...RECORD.job, kind: "lost" } })],
])("a job record %s reads as none, and is left as it was", async (_, text) => {
  state = makeTempDir("org-slurm-files-");
  const file = put("slurm-job.json", text);
  expect(await readJobRecord(filesPort, state, "r-1")).toBeUndefined();
  expect(readFileSync(file, "utf8")).toBe(text);
});
