import { formatClock } from "../domain/units/index.js";

const FEED_LINES = 12;

/** The control pane's feed: the last lines the services said, drawn under the status table. */
export class Feed {
  private readonly lines: string[] = [];
  // Counts lines said, so a new one is drawn at the next refresh even while no one watches.
  private count = 0;

  readonly say = (line: string): void => {
    this.count++;
    this.lines.push(`${formatClock(new Date())} ${line}`);
    this.lines.splice(0, Math.max(0, this.lines.length - FEED_LINES));
  };

  get said(): number {
    return this.count;
  }

  get text(): string {
    return this.lines.join("\n");
  }
}
