package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// piOrderHarness runs conch's Pi extension (pi.mjs beside it) under a
// fake Pi in node, with child_process.spawn replaced: each conch call is
// recorded as it starts ("start EVENT") and answered only when the
// harness says (answer), so the order of the calls is the extension's
// alone, whatever the machine's speed. It drives Pi's order of events in
// pi -p: the session's end is handled while the turn's end has not been
// handed to the extension yet (scenario "queued") or while its conch call
// is going on ("going"), and with no turn going on ("idle").
const piOrderHarness = `
import cp from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { EventEmitter } from "node:events";

const log = [];
const open = new Map();
cp.spawn = () => {
  const child = new EventEmitter();
  child.stdout = new EventEmitter();
  child.stdin = new EventEmitter();
  child.kill = () => {};
  child.stdin.end = (data) => {
    const name = JSON.parse(data).hook_event_name;
    log.push("start " + name);
    open.set(name, child);
  };
  return child;
};
syncBuiltinESMExports();
const { default: extension } = await import("./pi.mjs");

const on = {};
extension({ on: (name, fn) => { on[name] = fn; }, sendUserMessage: () => {} });
const ctx = {
  sessionManager: { getSessionId: () => "S", getSessionFile: () => "" },
  cwd: "/tmp", hasUI: false, abort: () => {},
};
const settle = () => new Promise((resolve) => setImmediate(resolve));
const answer = async (name) => {
  await settle();
  const child = open.get(name);
  if (!child) throw new Error("no conch call for " + name + " going on: " + log.join(", "));
  open.delete(name);
  child.stdout.emit("data", "{}");
  child.emit("close", 0);
  log.push("end " + name);
  await settle();
};
const final = { message: { role: "assistant", stopReason: "stop", content: [{ type: "text", text: "Done." }] } };

const scenario = process.argv[2];
let p = on.before_agent_start({ prompt: "x" }, ctx);
await answer("before_agent_start");
await p;
if (scenario === "idle") {
  const te = on.turn_end(final, ctx);
  await answer("turn_end");
  await te;
}
let turnEnd;
if (scenario === "going") {
  turnEnd = on.turn_end(final, ctx);
  await settle();
}
const shutdown = on.session_shutdown({ reason: "quit" }, ctx);
await settle();
if (scenario === "queued") {
  turnEnd = on.turn_end(final, ctx);
  await settle();
}
if (turnEnd) {
  await answer("turn_end");
  await turnEnd;
}
await answer("session_shutdown");
await shutdown;
console.log(log.join("\n"));
`

// TestPiExtensionEndsTurnBeforeSession: the Pi extension tells conch a
// turn's end before the session's end, though Pi hands the turn's end to
// extensions from a queue it does not wait for before its session ends
// (pi -p leaves as soon as its prompt is answered): the session's end
// waits for it, so a wait on the turn ends finished, not stopped. With
// no turn going on, the session's end waits for nothing.
func TestPiExtensionEndsTurnBeforeSession(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on this machine")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pi.mjs"), []byte(piExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "harness.mjs"), []byte(piOrderHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"start before_agent_start", "end before_agent_start",
		"start turn_end", "end turn_end",
		"start session_shutdown", "end session_shutdown",
	}, "\n")
	for _, scenario := range []string{"queued", "going", "idle"} {
		cmd := exec.Command(node, "harness.mjs", scenario)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", scenario, err, out)
			continue
		}
		if got := strings.TrimSpace(string(out)); got != want {
			t.Errorf("%s: the calls went\n%s\nwant\n%s", scenario, got, want)
		}
	}
}
