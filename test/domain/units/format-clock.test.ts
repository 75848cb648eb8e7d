import { describe, expect, test, vi } from "vitest";
import { Feed } from "../../../src/daemon/control-feed.js";
import { formatClock } from "../../../src/domain/units/index.js";

describe("formatClock", () => {
  test("the local time of day on 24 hours, two digits each (the tests' TZ is UTC)", () => {
    expect([
      formatClock(new Date("2026-12-06T04:05:09Z")), formatClock(new Date("2026-12-06T23:59:59.999Z")),
      formatClock(new Date("2026-12-06T00:00:00Z")),
    ]).toEqual(["04:05:09", "23:59:59", "00:00:00"]);
  });

  test("the daemon pane's feed starts each line with it, never a locale's format (its ICU load cost each daemon " +
    "10–30 ms)", () => {
    vi.useFakeTimers({ now: new Date("2026-12-06T16:05:09Z") });
    try {
      const feed = new Feed();
      feed.say("keep: val_loss 0.9");
      expect(feed.text).toBe("16:05:09 keep: val_loss 0.9");
    } finally {
      vi.useRealTimers();
    }
  });
});
