import { describe, expect, test } from "vitest";
import { chooseNextDiskLook, DISK_LOOK_MS, QUIET_DISK_LOOK_MS } from "../../../src/domain/sandbox/disk-cadence.js";

const GiB = 1024 ** 3;
const still = { usedBefore: 10 * GiB, used: 10 * GiB + 4096, free: 50 * GiB, floor: GiB };

describe("the disk watch's cadence", () => {
  test("a still disk is asked half as often each look, up to the longest wait", () => {
    expect(chooseNextDiskLook({ ...still, waitedMs: DISK_LOOK_MS })).toBe(2000);
    expect(chooseNextDiskLook({ ...still, waitedMs: 2000 })).toBe(QUIET_DISK_LOOK_MS);
    expect(chooseNextDiskLook({ ...still, waitedMs: QUIET_DISK_LOOK_MS })).toBe(QUIET_DISK_LOOK_MS);
  });

  test("a disk whose use moved by a MiB either way, a first look, or free space near the floor: every second", () => {
    const waitedMs = QUIET_DISK_LOOK_MS;
    expect(chooseNextDiskLook({ ...still, waitedMs, used: still.usedBefore + 1024 ** 2 })).toBe(DISK_LOOK_MS);
    expect(chooseNextDiskLook({ ...still, waitedMs, used: still.usedBefore - 1024 ** 2 })).toBe(DISK_LOOK_MS);
    expect(chooseNextDiskLook({ ...still, waitedMs, usedBefore: undefined })).toBe(DISK_LOOK_MS);
    expect(chooseNextDiskLook({ ...still, waitedMs, free: 2 * GiB - 1 })).toBe(DISK_LOOK_MS);
  });
});
