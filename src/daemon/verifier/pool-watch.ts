import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import { checkGpuPresent } from "../../domain/lifecycle/select-gpus.js";
import type { GpuProbe } from "../../domain/ports.js";
import { appendLines } from "../../adapters/fs/files.js";

/**
 * The verifier's hands, with every failed run on a GPU checked against nvidia-smi: a run whose GPU is gone is
 * a crash for that reason (said in its log too), and `onGone` takes the GPU out of the pool. Asked only on a
 * failure, so a healthy pool costs no probe.
 */
export function watchPoolGpus(
  port: VerifierPort,
  probe: GpuProbe,
  onGone: (gpu: number, reason: string) => Promise<void>,
): VerifierPort {
  return {
    ...port,
    async runCommand(argv, options) {
      const result = await port.runCommand(argv, options);
      const gpu = options.env.CUDA_VISIBLE_DEVICES ?? "";
      if (result.exitCode === 0 || result.aborted || !/^\d+$/.test(gpu)) return result;
      const presence = checkGpuPresent(Number(gpu), await probe.probe());
      if (presence.kind !== "gone") return result;
      await appendLines(options.logFile, [`org: ${presence.reason}`]);
      await onGone(Number(gpu), presence.reason);
      return { ...result, fault: presence.reason };
    },
  };
}
