import { OrgError } from "../domain/errors.js";
import { filesPort } from "../adapters/fs/files-port.js";
import { writeDaemonFile } from "../domain/lifecycle/daemon-file.js";
import { usage } from "../adapters/usage/counters.js";
import { defineLoop } from "./loop-service.js";
import { listServiceTicks, type Service } from "./services.js";

const BEAT_MS = 2000;

/**
 * state/daemon.json, rewritten every beat: commands that need the daemon wait for its first beat and call it down
 * when beats stop. Last in the table, so the first beat says every other service has started.
 */
export function defineHeartbeat(opts: {
  file: string;
  queuePerAgent: () => number | undefined;
  services: () => readonly Service[];
  say: (line: string) => void;
}): Service {
  let startedAt = "";
  let problem = "";
  return defineLoop({
    name: "heartbeat",
    periodMs: BEAT_MS,
    open: async () => {
      startedAt = new Date().toISOString();
    },
    // A full disk must not end the loop: the heartbeat resumes when
    // space returns. Each problem is said once, not every beat.
    tick: (now) => writeDaemonFile(filesPort, { daemon: opts.file }, {
      pid: process.pid, startedAt, heartbeatAt: now.toISOString(), queuePerAgent: opts.queuePerAgent(), usage,
      services: listServiceTicks(opts.services()),
    }).then(() => {
      problem = "";
    }, (error: Error) => {
      const full = error instanceof OrgError && error.code === "disk-full";
      const after = full ? "; the daemon keeps running and beats again once there is room" : "";
      if (error.message !== problem) opts.say(`heartbeat: ${error.message}${after}`);
      problem = error.message;
    }),
  });
}
