import { describeRealAgents } from "../helpers/real-agents-suite.js";

// One file per pane mode (the other is real-agents-pty.clients), so the two run side by side.
describeRealAgents("tmux");
