/**
 * When a usage limit resets, from what the CLI printed: "in 2 hours 5 minutes", "3pm", "3:15 PM",
 * "15:00 (Europe/London)". Epoch ms of the next such moment after `now`, or null when it cannot tell.
 */
export function parseResetTime(text: string, now: number): number | null {
  const relative = parseRelative(text);
  if (relative !== null) return now + relative;
  const clock = /(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?/i.exec(text);
  if (!clock) return null;
  let hour = Number(clock[1]);
  const minute = Number(clock[2] ?? 0);
  const meridiem = clock[3]?.toLowerCase().replace(/\./g, "");
  if (!meridiem && clock[2] === undefined) return null;
  if (meridiem === "pm" && hour < 12) hour += 12;
  if (meridiem === "am" && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return null;
  const zone = /\(([A-Za-z_]+\/[A-Za-z_/+-]+|UTC)\)/.exec(text)?.[1];
  return nextWallClock(now, hour, minute, zone);
}

function parseRelative(text: string): number | null {
  const units: [RegExp, number][] = [
    [/(\d+)\s*(?:h|hours?)\b/i, 3_600_000],
    [/(\d+)\s*(?:m|min|mins|minutes?)\b/i, 60_000],
    [/(\d+)\s*(?:s|sec|seconds?)\b/i, 1000],
  ];
  if (!/\bin\b|\d\s*[hms]\b|hours?|minutes?/i.test(text) || /\d:\d/.test(text) || /[ap]\.?m\b/i.test(text)) return null;
  let total = 0;
  for (const [pattern, ms] of units) {
    const match = pattern.exec(text);
    if (match) total += Number(match[1]) * ms;
  }
  return total > 0 ? total : null;
}

// The next hour:minute on the wall clock of `zone` (the local zone when unknown), strictly after now.
function nextWallClock(now: number, hour: number, minute: number, zone: string | undefined): number | null {
  const offset = (at: number) => zoneOffset(at, zone);
  if (offset(now) === null) return null;
  const wall = new Date(now + offset(now)!);
  for (let day = 0; day < 2; day++) {
    const guess = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + day, hour, minute);
    const at = guess - offset(guess)!;
    if (at > now) return at;
  }
  return null;
}

// Milliseconds the zone's wall clock is ahead of UTC at `at`; null for an unknown zone name.
function zoneOffset(at: number, zone: string | undefined): number | null {
  if (zone === undefined) return -new Date(at).getTimezoneOffset() * 60_000;
  try {
    const parts = new Intl.DateTimeFormat(
      "en-US",
      {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      },
    ).formatToParts(at);
    const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
    return Date.UTC(
      get("year"),
      get("month") - 1,
      get("day"),
      get("hour"),
      get("minute"),
      get("second"),
    ) - Math.floor(at / 1000) * 1000;
  } catch {
    return null;
  }
}
