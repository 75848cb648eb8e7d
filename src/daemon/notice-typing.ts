import { countNoticeLines } from "../domain/messages/notify.js";
import type { NoticePort } from "../domain/ports.js";

// Gemini CLI 0.61 takes an Enter within 40 ms of a paste as a newline, by a timer that a loaded machine delays as much
// as it delays drawing: the screen must have settled on the paste, for at least twice as long as the paste took to
// show.
const SETTLE_MS = 150;

export type TypingResult = { kind: "typed"; presses: number } | { kind: "not-taken"; reason: string };

/**
 * Pastes a notice line, waits until the screen shows it, and only then presses Enter, once more if the screen stays as
 * it was: an Enter that arrives with the paste is swallowed by some TUIs (Gemini CLI 0.61), a paste into a CLI still
 * starting is lost. `shownBefore`: on a retry, how often the line showed before the first attempt.
 */
export async function typeNotice(
  io: NoticePort,
  pane: string,
  line: string,
  buffer: string,
  look: () => Promise<string | undefined>,
  confirmMs: number,
  shownBefore?: number,
): Promise<TypingResult> {
  const now = (await look()) ?? "";
  const before = shownBefore ?? countNoticeLines(now, line);
  const pastedAt = Date.now();
  // A retry whose first paste still sits unsent in the input only
  // needs its Enter: a second paste would send the line twice.
  const unsent = shownBefore !== undefined && countNoticeLines(now, line) > shownBefore;
  if (!unsent && !(await io.paste(pane, line, buffer)))
    return { kind: "not-taken", reason: "the paste did not reach the pane" };
  const shown = unsent ? now : await waitForLook(look, (text) => countNoticeLines(text, line) > before, confirmMs);
  if (shown === undefined) return { kind: "not-taken", reason: "the pasted line never showed on its screen" };
  const pasted = await waitForStill(look, shown, Math.max(SETTLE_MS, 2 * (Date.now() - pastedAt)), confirmMs);
  for (let presses = 1; presses <= 2; presses++) {
    if (!(await io.pressEnter(pane))) return { kind: "not-taken", reason: "Enter did not reach the pane" };
    if ((await waitForLook(look, (text) => text !== pasted, confirmMs)) !== undefined)
      return { kind: "typed", presses };
  }
  return { kind: "not-taken", reason: "the screen did not change after Enter, twice" };
}

/** The screen once it has stayed the same for `stillMs`, or as it is when `timeoutMs` runs out. */
async function waitForStill(
  look: () => Promise<string | undefined>,
  first: string,
  stillMs: number,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = first;
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = (await look()) ?? last;
    if (text !== last) [last, since] = [text, Date.now()];
    else if (Date.now() - since >= stillMs) break;
  }
  return last;
}

async function waitForLook(
  look: () => Promise<string | undefined>,
  done: (text: string) => boolean,
  timeoutMs: number,
): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await look();
    if (text !== undefined && done(text)) return text;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
