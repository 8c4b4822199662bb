// conch: this file is conch's own (conch install pi); conch install pi --remove takes it out.
//
// It tells conch what this Pi session does: each event below runs
// `conch hook pi` with the event as JSON on standard input, and does what
// conch answers (notes for the model, a tool to refuse, a stopped reply, a
// message that starts a reply). conch missing, slow or failing never
// breaks the session: every call has a time budget, and every failure is
// swallowed. (Plain JavaScript, so that it needs nothing but Pi itself.)
import { spawn } from "node:child_process";

const CONCH = "conch"; // the program install named (--conch)
const BUDGET = 10000; // ms a call may take (as Claude Code gives a hook); conch waits 1 s for its lock
const END_WAIT = 3000; // ms the session's end waits for the end of a turn Pi has not yet reported
// The chat this Pi was started for (a wake_cmd, or a person who set it),
// as it was before this extension set its own session's.
const INHERITED = process.env.CONCH_CHAT;

function conch(event) {
  return new Promise((resolve) => {
    let out = "";
    let done = false;
    let timer;
    const finish = (v) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(v);
      }
    };
    try {
      const env = { ...process.env };
      if (INHERITED === undefined) delete env.CONCH_CHAT;
      else env.CONCH_CHAT = INHERITED;
      const child = spawn(CONCH, ["hook", "pi"], { env, stdio: ["pipe", "pipe", "ignore"] });
      timer = setTimeout(() => {
        try { child.kill("SIGKILL"); } catch (e) {}
        finish(null);
      }, BUDGET);
      child.on("error", () => finish(null));
      child.stdout.on("data", (d) => { out += d; });
      child.on("close", () => {
        try { finish(out.trim() ? JSON.parse(out) : null); } catch (e) { finish(null); }
      });
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(event));
    } catch (e) {
      finish(null);
    }
  });
}

export default function (pi) {
  let held = ""; // notes said at session start, for the first prompt
  let ours = false; // the turn going on is a message conch delivered
  let turn = ""; // names the turn going on, once for every event of it
  // Pi hands a turn's end to extensions from a queue it does not wait
  // for before the session's end (pi -p leaves as soon as its prompt is
  // answered): session_shutdown waits for the turn's end to be told, and
  // for every call going on, so that the turn ends as it did (finished)
  // before the session's end stops the chat.
  const going = new Set();
  let turnEnded = null; // resolves once the turn going on has told its end
  let endTurn = () => {};

  const base = (name, ctx) => {
    const sm = ctx.sessionManager;
    return {
      hook_event_name: name,
      session_id: String(sm.getSessionId() || ""),
      transcript_path: String(sm.getSessionFile() || ""),
      cwd: String(ctx.cwd || ""),
      turn_id: turn,
    };
  };
  const call = async (e) => {
    const p = conch(e);
    going.add(p);
    const ans = await p;
    going.delete(p);
    if (ans && typeof ans === "object") {
      if (ans.chat) process.env.CONCH_CHAT = String(ans.chat); // for the model's shell
      return ans;
    }
    return {};
  };
  const abort = (ctx) => {
    try { ctx.abort(); } catch (e) {}
  };

  pi.on("session_start", async (event, ctx) => {
    try {
      if (INHERITED === undefined) delete process.env.CONCH_CHAT;
      else process.env.CONCH_CHAT = INHERITED;
      const e = base("session_start", ctx);
      e.reason = String(event.reason || "");
      e.argv = process.argv.map(String); // how to run pi again: its title may hide it
      const ans = await call(e);
      held = ans.context || "";
    } catch (e) {}
  });

  pi.on("before_agent_start", async (event, ctx) => {
    try {
      turn = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8);
      endTurn();
      turnEnded = new Promise((resolve) => { endTurn = resolve; });
      const e = base("before_agent_start", ctx);
      e.prompt = String(event.prompt || "");
      e.conch_prompt = ours;
      const ans = await call(e);
      const text = [held, ans.context || ans.stop].filter(Boolean).join("\n\n");
      held = "";
      if (ans.stop) abort(ctx);
      if (text) return { message: { customType: "conch", content: text, display: false } };
    } catch (e) {}
  });

  // A tool_call handler that throws refuses the tool: this one never throws.
  pi.on("tool_call", async (event, ctx) => {
    try {
      const e = base("tool_call", ctx);
      e.tool_name = String(event.toolName || "");
      e.tool_use_id = String(event.toolCallId || "");
      e.tool_input = event.input || {};
      const ans = await call(e);
      if (ans.stop) abort(ctx);
      if (ans.block) return { block: true, reason: String(ans.block) };
    } catch (e) {}
  });

  pi.on("tool_result", async (event, ctx) => {
    try {
      const e = base("tool_result", ctx);
      e.tool_name = String(event.toolName || "");
      e.tool_use_id = String(event.toolCallId || "");
      e.tool_input = event.input || {};
      e.is_error = !!event.isError;
      const ans = await call(e);
      const text = [ans.context, ans.stop].filter(Boolean).join("\n\n");
      if (ans.stop) abort(ctx);
      if (text) return { content: [...(event.content || []), { type: "text", text }] };
    } catch (e) {}
  });

  // The turn's last message: it ends the reply (or, stopped, failed,
  // ends it so), and a message waiting to start a reply goes on from it.
  pi.on("turn_end", async (event, ctx) => {
    try {
      const m = event.message || {};
      if (m.role !== "assistant" || m.stopReason === "toolUse") return;
      const e = base("turn_end", ctx);
      e.stop_reason = String(m.stopReason || "");
      e.error = String(m.errorMessage || "");
      e.last_assistant_message = (m.content || []).filter((c) => c.type === "text").map((c) => c.text || "").join("\n");
      // pi -p (no UI) leaves when the prompt is done: a prompt sent now
      // is never answered, so a message that would start a reply waits.
      e.stop_hook_active = ours || !ctx.hasUI;
      ours = false;
      const ans = await call(e);
      if (ans.prompt) {
        ours = true;
        pi.sendUserMessage(String(ans.prompt), { deliverAs: "followUp" });
      }
    } catch (e) {}
    turnEnded = null;
    endTurn();
  });

  pi.on("session_before_compact", async (event, ctx) => {
    try { await call(base("session_before_compact", ctx)); } catch (e) {}
  });

  pi.on("session_shutdown", async (event, ctx) => {
    try {
      if (turnEnded) {
        let timer;
        await Promise.race([turnEnded, new Promise((resolve) => { timer = setTimeout(resolve, END_WAIT); })]);
        clearTimeout(timer);
      }
      await Promise.all([...going]);
      const e = base("session_shutdown", ctx);
      e.reason = String(event.reason || "");
      await call(e);
    } catch (e) {}
  });
}
