import { setTask, type TaskInput } from "../../flows/set-task.js";
import type { Io } from "../io.js";

/** `org task <junior> "text"` or `-f task.md`: replace the junior's task file (the old one is archived) and tell it. */
export async function runTask(opts: TaskInput, io: Io): Promise<number> {
  const { agent, taskFile, id } = await setTask(opts);
  io.out(`task set for ${agent} in ${taskFile} and delivered as ${id} — \`org inbox --sent\` shows when it is read`);
  return 0;
}
