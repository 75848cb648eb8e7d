import type { Command } from "commander";
import type { Io } from "./io.js";

/** Wraps a command's action so its exit code becomes `org`'s. */
export type Run = <A extends unknown[]>(action: (...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/** What registering a command needs: the program, the action wrapper, the org's root and the output. */
export interface CommandContext {
  program: Command;
  run: Run;
  root: () => string;
  io: Io;
}
