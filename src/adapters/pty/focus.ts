import type { PtyFeed } from "./feed.js";

/**
 * `org watch`'s focus on one agent of a pty-mode org: its terminal takes the dashboard pane's size while
 * focused and gets its own size back after, so the program draws for the screen it is seen on.
 */
export class PtyFocus {
  private readonly sizes = new Map<string, { cols: number; rows: number }>();

  constructor(private readonly feed: PtyFeed) {}

  async enter(agent: string, cols: number, rows: number): Promise<void> {
    if (!this.sizes.has(agent)) {
      const pane = (await this.feed.panes())?.find((candidate) => candidate.agent === agent);
      if (!pane) throw new Error(`${agent} has no pane — is the org up?`);
      this.sizes.set(agent, { cols: pane.cols, rows: pane.rows });
    }
    if (!(await this.feed.resize(agent, cols, rows)))
      throw new Error(`cannot resize ${agent}'s terminal to ${cols}×${rows}`);
  }

  screen(agent: string): ReturnType<PtyFeed["screen"]> {
    return this.feed.screen(agent);
  }

  keys(agent: string, data: string): Promise<boolean> {
    return this.feed.sendKeys(agent, data);
  }

  async leave(agent: string): Promise<void> {
    const size = this.sizes.get(agent);
    this.sizes.delete(agent);
    if (size) await this.feed.resize(agent, size.cols, size.rows);
  }
}
