// Gemini CLI 0.61 takes an Enter within 30 ms of typed text as
// a newline in its input box: the Enter goes separately, later.
const ENTER_AFTER_TEXT_MS = 150;

/** Types a line's text, lets the CLI take it as typing rather than a paste, then submits it with its own Enter. */
export async function typeThenEnter(
  typeText: () => Promise<unknown>,
  pressEnter: () => Promise<unknown>,
): Promise<void> {
  await typeText();
  await new Promise((resolve) => setTimeout(resolve, ENTER_AFTER_TEXT_MS));
  await pressEnter();
}
