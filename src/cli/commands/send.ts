import { sendMessageAs, type SendInput } from "../../flows/send-message.js";
import type { Io } from "../io.js";

/**
 * `org send <agent|role> "text"` or `-f file.md`: one message file per recipient, refused unless the
 * wiring allows it.
 */
export async function runSend(opts: SendInput, io: Io): Promise<number> {
  const sent = await sendMessageAs(opts);
  io.out(`delivered ${sent.id} to ${sent.to.join(", ")} — \`org inbox --sent\` shows when it is read`);
  return 0;
}
