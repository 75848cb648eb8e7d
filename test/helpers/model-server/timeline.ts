/** Milestones of a real-CLI test, in ms since it began, printed at its end: where the time of each CLI went. */
export interface Timeline {
  /** Notes `what` for `who` now (or at `at`, a request's arrival). */
  mark(who: string, what: string, at?: number): void;
  /** One line per `who`: its milestones in the order they came. */
  lines(): string[];
}

export function startTimeline(start = Date.now()): Timeline {
  const marks = new Map<string, { what: string; at: number }[]>();
  return {
    mark(who, what, at = Date.now()) {
      marks.set(who, [...(marks.get(who) ?? []), { what, at }]);
    },
    lines: () =>
      [...marks].map(([who, list]) => {
        const sorted = [...list].sort((a, b) => a.at - b.at);
        return `${who}: ${sorted.map((mark) => `${mark.what} ${((mark.at - start) / 1000).toFixed(1)}s`).join(" · ")}`;
      }),
  };
}
