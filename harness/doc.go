// Package harness is conch's adapters, one value each (Adapter, in the
// harness's own file: claude.go, codex.go, …, listed in Adapters), and
// what a harness session means in conch, for every adapter: an Event (a
// session started, a prompt, a tool about to run or done, a turn's end,
// …) in conch's own words, and Handle, which does what it means in the
// domain (the chat a session stands for, its replies and steps, the
// guard, the notes, a stop, a --start-reply message that keeps a turn
// going) and returns an Answer in types (an introduction, the guard's
// verdict, a stop notice, the notes, a tool denied or asked, the turn
// ended or kept going), already shaped to what the harness can carry
// (Capabilities). It also holds what harnesses share beside the events:
// the tool-to-family table and git-commit detection (Family), the
// harnesses' own session files (transcripts, Codex's rollouts, adopted
// sessions' looks), and which session a shell names (SessionChat,
// ShellChat).
//
// It composes state's transactions and never writes a record itself; the
// records of a session's link stay in state, beside the chats they make.
// It never says a sentence and never imports render: cli says an Answer
// in render's words (a Reply), which the adapter's Encode puts in its
// harness's JSON; what Handle must measure or clean (a cap in bytes said,
// a title) it asks of Env.Wording, which cli hands it.
//
// Adding a harness (TestAdaptersWhole and TestNoHarnessNameOutside hold
// it to this):
//  1. harness/NAME.go: var NAME = Adapter{Name, Title, Use, Short, Long,
//     Install (its install.Recipe: conch install NAME; what only it
//     notes is a type of its own there, with its words in
//     render.InstallNote), Caps (with its Resumer), Decode (its payload
//     → Event), Encode (Reply → its JSON; Claude Code's protocol is
//     decodeHook and encodeHook), Tools (its tools' names in Claude
//     Code's words, which the tool-to-family table reads)};
//  2. one line in Adapters;
//  3. its recorded payloads in testdata/hooks/NAME, its install
//     testscript (testdata/script/install_NAME.txtar), and an e2e test in
//     cli/e2e that runs the real binary through a turn (its pin in
//     testdata/e2e/harnesses.txt).
package harness
