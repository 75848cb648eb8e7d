import { lstatSync, readFileSync } from "node:fs";

/**
 * A small file's text read at once, off the event loop's thread pool: `org status` reads three files an agent, and
 * at 64 agents the ~600 round trips of open, stat, read and close cost more than the reads. Only for files org
 * writes itself (state/): nothing an agent can make a FIFO blocks it. Undefined when missing, as readText.
 */
export function readTextNow(path: string): Promise<string | undefined> {
  try {
    return Promise.resolve(readFileSync(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Promise.resolve(undefined);
    return Promise.reject(error as Error);
  }
}

/**
 * Whether `path` is missing or a plain file of at most `max` bytes, by one lstat at once (never through a link at
 * its end): a cheap first look that lets a caller skip the careful no-follow open of a file that is plainly small.
 */
export function isSmallFileNow(path: string, max: number): boolean {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return info === undefined || (info.isFile() && info.size <= max);
  } catch {
    return false;
  }
}
