// Focus mode's moving parts: which agent has the keys, its screen polled quickly, raw input passed on.
import type { Readable } from "node:stream";
import { splitFocusInput, type FocusScreen } from "./dashboard-focus.js";

/** Typing into one agent's terminal from the dashboard. */
export interface FocusPort {
  /** Sizes the agent's terminal to the focused pane; called again when the dashboard is resized. */
  enter(agent: string, cols: number, rows: number): Promise<void>;
  /** The agent's screen and cursor; undefined when it cannot be read. */
  screen(agent: string): Promise<FocusScreen | undefined>;
  /** Raw typed bytes for the agent's program; false when they could not be delivered. */
  keys(agent: string, data: string): Promise<boolean>;
  /** Gives the agent back the size it had before focus. */
  leave(agent: string): Promise<void>;
}

// Typing wants its echo at once: the focused screen alone is read this often, the rest at the dashboard's pace.
const POLL_MS = 50;

export class FocusSession {
  /** The agent typed keys go to; undefined outside focus. */
  agent: string | undefined;
  /** Its latest screen. */
  screen: FocusScreen | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly port: FocusPort,
    private readonly input: Readable,
    private readonly changed: () => void,
    private readonly say: (message: string) => void,
  ) {
    // Ahead of blessed's key parser, which the dashboard tells to ignore keys while focused.
    input.prependListener("data", this.typed);
  }

  enter(agent: string): void {
    this.agent = agent;
    this.screen = undefined;
    this.timer ??= setInterval(() => void this.poll(), POLL_MS);
  }

  /** The focused pane now has this inside: the agent's terminal follows. */
  resize(cols: number, rows: number): void {
    if (this.agent !== undefined) void this.port.enter(this.agent, cols, rows)
      .then(() => this.poll(), (error: Error) => this.say(error.message));
  }

  leave(): void {
    const agent = this.agent;
    if (agent === undefined) return;
    this.agent = undefined;
    this.screen = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    void this.port.leave(agent).catch((error: Error) => this.say(error.message));
  }

  dispose(): void {
    this.leave();
    this.input.off("data", this.typed);
  }

  private readonly typed = (chunk: Buffer | string): void => {
    const agent = this.agent;
    if (agent === undefined) return;
    const { forward, leave } = splitFocusInput(chunk.toString());
    if (forward) void this.port.keys(agent, forward)
      .then((ok) =>
        (ok ? setTimeout(() => void this.poll(), 10) : this.say(`${agent} did not take the keys — is it running?`)));
    if (leave) {
      this.leave();
      this.changed();
    }
  };

  private async poll(): Promise<void> {
    const agent = this.agent;
    if (agent === undefined || this.polling) return;
    this.polling = true;
    try {
      const screen = await this.port.screen(agent);
      if (this.agent !== agent) return;
      this.screen = screen;
      this.changed();
    } finally {
      this.polling = false;
    }
  }
}
