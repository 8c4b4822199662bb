// Package harness is what a harness session means in conch, for every
// adapter: an Event (a session started, a prompt, a tool about to run or
// done, a turn's end, …) in conch's own words, and Handle, which does what
// it means in the domain (the chat a session stands for, its replies and
// steps, the guard, the notes, a stop, a --start-reply message that keeps
// a turn going) and returns an Answer (context for the model, a tool
// denied or asked, the turn stopped or kept going, a line for the
// person), already shaped to what the harness can carry (Capabilities).
// It also holds what harnesses share beside the events: the tool-to-family
// table and git-commit detection (Family), the harnesses' own session
// files (transcripts, Codex's rollouts, adopted sessions' looks), and
// which session a shell names (SessionChat, ShellChat).
//
// It composes state's transactions and never writes a record itself; the
// records of a session's link stay in state, beside the chats they make.
// It never reads a harness's wire format: decoding a payload and encoding
// an answer are the adapter's (cli/hook_*.go).
//
// Adding a harness:
//  1. a decoder in cli (its payload → Event; a table of its event names → Kind);
//  2. an encoder in cli (Answer → its output; Claude Code and Codex share one);
//  3. a row in known (caps.go): its Capabilities, and its tools' rows in Family;
//  4. an install recipe (cli/install_*.go), and its id in state.Harnesses;
//  5. an e2e test in cli/e2e that runs the real binary through a turn.
package harness
