import * as z from "zod";

// Names become branch, tmux and file names: keep them to a safe alphabet.
// Spelled without the i flag because JSON Schema patterns carry no flags.
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const SAFE_NAME_RULE = "1-40 letters, digits, '-' or '_', starting with a letter or digit";
// Custom messages are noun phrases: messages.ts prints "<path> must be <message>, got <value>".
export const name = () => z.string().regex(SAFE_NAME, { message: SAFE_NAME_RULE });

export const argv = z.array(z.string().min(1)).min(1);
