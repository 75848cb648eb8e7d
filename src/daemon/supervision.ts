import type { ChildTracker, PanesPort } from "../domain/ports.js";
import { defineLoop } from "./loop-service.js";
import { PaneSupervisor } from "./pane-supervisor.js";
import { ScreenWatch } from "./screen-watch.js";
import type { Service } from "./services.js";

// While a restart is pending, how soon it is made: one tmux command per look, over a standing client.
const SUPERVISE_MS = 500;
// With every agent settled, tmux hooks wake the supervisor on an exit; this look only catches what no hook reports.
const SETTLED_SUPERVISE_MS = 5000;
// Screens change slowly next to exits (a nudge waits minutes): a look every few seconds is enough.
const SCREEN_MS = 3000;
// While a resumed CLI's kickoff waits on its prompt (at most a couple of minutes): typed within a second or two of it.
const PROMPT_WAIT_SCREEN_MS = 1000;

/**
 * The supervisor and the screen watch over one grid (tmux, or `org pty-host` over its socket). The supervisor's
 * first look is made at its start, before the verifier loads: agents whose program already exited wait on us.
 */
export function defineSupervision(opts: {
  state: string; tmux: PanesPort; children: ChildTracker; say: (line: string) => void;
}): { supervisor: Service; screens: Service } {
  const { say } = opts;
  const screenPort = opts.tmux.openScreenPort();
  const screens = new ScreenWatch(opts.state, screenPort);
  const supervisor = new PaneSupervisor(opts.state, opts.tmux.openPaneHost(opts.children), say, (pane) =>
    screens.whyBlocked(pane),
  );
  let settled = false;
  const screensPauseMs = () => (screens.isWaitingOnPrompt() ? PROMPT_WAIT_SCREEN_MS : SCREEN_MS);
  return {
    supervisor: defineLoop({
      name: "supervisor",
      periodMs: SETTLED_SUPERVISE_MS,
      firstTickInStart: true,
      tick: async () =>
        (settled = await supervisor.tick().catch((error: Error) => (say(`supervisor: ${error.message}`), false))),
      pause: () => supervisor.pause(settled, SUPERVISE_MS, SETTLED_SUPERVISE_MS),
      // The supervisor reads dead panes' screens: the screen port closes with it, not with the screen watch.
      close: async () => {
        supervisor.close();
        screenPort.close?.();
      },
    }),
    screens: defineLoop({
      name: "screens",
      periodMs: SCREEN_MS,
      // With no screen to read, the supervisor's listing (hooks refresh it on any death) names the panes well enough.
      tick: () => {
        const listedWithin = screens.watchesNone() ? SETTLED_SUPERVISE_MS + SCREEN_MS : 0;
        return supervisor.watchScreens((panes) => screens.tick(panes), listedWithin);
      },
      pause: () => new Promise((resolve) => setTimeout(resolve, screensPauseMs()).unref()),
      fail: (error) => say(`screens: ${error.message}`),
    }),
  };
}
