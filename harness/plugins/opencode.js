// conch: this file is conch's own (conch install opencode); conch install opencode --remove takes it out.
//
// It tells conch what this OpenCode session does: each event below runs
// `conch hook opencode` with the event as JSON on standard input, and does
// what conch answers (notes for the model, a tool to refuse, a stopped
// reply, a message that starts a reply). conch missing, slow or failing
// never breaks the session: every call has a time budget, and every
// failure is swallowed.
import { spawn } from "node:child_process";

const CONCH = "conch"; // the program install named (--conch)
const BUDGET = 10000; // ms a call may take (as Claude Code gives a hook); conch waits 1 s for its lock
// The chat this OpenCode was started for (a wake_cmd, or a person who set
// it), as it was before this plugin set anything.
const INHERITED = process.env.CONCH_CHAT;
// opencode run leaves when the session goes idle: a prompt sent then is
// never answered, so a message that would start a reply waits instead.
const ONESHOT = process.argv.slice(1).includes("run");

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
      const child = spawn(CONCH, ["hook", "opencode"], { env, stdio: ["pipe", "pipe", "ignore"] });
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

export const Conch = async (ctx) => {
  const parents = new Map(); // session id → its parent's (a subagent's task session)
  const titles = new Map(); // session id → its title
  const chats = new Map(); // session id → conch chat id, for its shell
  const turns = new Map(); // session id → the user message its turn began with
  const last = new Map(); // session id → the turn's last words so far
  const ours = new Set(); // sessions whose next prompt is conch's (a message it delivers)
  const held = new Map(); // call id → notes to put after the tool's output
  const intro = new Map(); // session id → what it hears at its first prompt
  const roots = new Set();
  let permission = {}; // the config's permission rules: they set the chat's mode

  const root = (id) => {
    for (let i = 0; i < 32 && parents.has(id); i++) id = parents.get(id);
    return id;
  };
  const base = (name, id) => {
    const r = root(id);
    const e = { hook_event_name: name, session_id: r, cwd: ctx.directory, turn_id: turns.get(id) || "" };
    if (r !== id) {
      e.agent_id = id;
      e.agent_type = titles.get(id) || "";
    }
    return e;
  };
  // One session's events reach conch one at a time, in the order OpenCode
  // fired them (it does not wait for one event's handler before the next).
  const queues = new Map();
  const serial = (key, fn) => {
    const p = (queues.get(key) || Promise.resolve()).then(fn, fn);
    queues.set(key, p.catch(() => {}));
    return p;
  };
  const call = async (e, id) => {
    const ans = await serial(e.session_id, () => conch(e));
    if (ans && typeof ans === "object") {
      if (ans.chat && id) chats.set(id, String(ans.chat));
      return ans;
    }
    return {};
  };
  const abort = (id) => {
    try {
      Promise.resolve(ctx.client.session.abort({ path: { id } })).catch(() => {});
    } catch (e) {}
  };

  return {
    config: async (cfg) => {
      try { permission = (cfg && cfg.permission) || {}; } catch (e) {}
    },

    event: async ({ event }) => {
      try {
        const p = event.properties || {};
        switch (event.type) {
          case "session.created": {
            const info = p.info || {};
            if (!info.id) return;
            if (info.parentID) parents.set(info.id, info.parentID);
            else roots.add(info.id);
            titles.set(info.id, info.title || "");
            const e = base("session.created", info.id);
            e.title = info.title || "";
            e.cwd = info.directory || ctx.directory;
            e.permission = permission;
            // Where this OpenCode takes prompts (its server: opencode
            // serve, the TUI's): conch sends a message there while the
            // session is open and idle.
            try { e.server_url = String(ctx.serverUrl || ""); } catch (err) {}
            const ans = await call(e, info.id);
            if (ans.context) intro.set(info.id, String(ans.context));
            return;
          }
          case "session.idle": {
            const id = p.sessionID;
            if (!id) return;
            const e = base("session.idle", id);
            e.last_assistant_message = last.get(id) || "";
            e.stop_hook_active = ours.has(id) || ONESHOT;
            ours.delete(id);
            last.delete(id);
            const ans = await call(e, id);
            if (ans.prompt) {
              ours.add(id);
              await ctx.client.session.promptAsync({ path: { id }, body: { parts: [{ type: "text", text: String(ans.prompt) }] } });
            }
            return;
          }
          case "session.error": {
            const id = p.sessionID;
            if (!id) return;
            const e = base("session.error", id);
            const err = p.error || {};
            e.error = { name: String(err.name || ""), message: String((err.data && err.data.message) || err.message || "") };
            e.last_assistant_message = last.get(id) || "";
            await call(e, id);
            return;
          }
          case "permission.asked": {
            const id = p.sessionID;
            if (!id) return;
            const e = base("permission.asked", id);
            e.permission = String(p.permission || "");
            e.patterns = p.patterns || [];
            await call(e, id);
            return;
          }
          case "session.compacted": {
            if (p.sessionID) await call(base("session.compacted", p.sessionID), p.sessionID);
            return;
          }
          case "session.deleted": {
            const id = (p.info && p.info.id) || p.sessionID;
            if (!id || parents.has(id)) return;
            roots.delete(id);
            await call(base("session.deleted", id), id);
            return;
          }
        }
      } catch (e) {}
    },

    "chat.message": async (input, output) => {
      try {
        const id = input.sessionID;
        const msg = output.message || {};
        if (msg.id) turns.set(id, msg.id);
        last.delete(id);
        const e = base("chat.message", id);
        e.prompt = (output.parts || []).filter((p) => p.type === "text" && !p.synthetic).map((p) => p.text || "").join("\n");
        e.agent = String(msg.agent || input.agent || "");
        e.permission = permission;
        e.conch_prompt = ours.has(id);
        const ans = await call(e, id);
        const text = [intro.get(id), ans.context || ans.stop].filter(Boolean).join("\n\n");
        intro.delete(id);
        if (text) {
          output.parts.push({ id: "prt_conch_" + Date.now().toString(36), sessionID: id, messageID: msg.id, type: "text", text: String(text), synthetic: true });
        }
        if (ans.stop) abort(id);
      } catch (e) {}
    },

    "experimental.text.complete": async (input, output) => {
      try {
        if (output && typeof output.text === "string" && output.text.trim()) last.set(input.sessionID, output.text);
      } catch (e) {}
    },

    "tool.execute.before": async (input, output) => {
      let ans = {};
      try {
        const e = base("tool.execute.before", input.sessionID);
        e.tool_name = String(input.tool || "");
        e.tool_use_id = String(input.callID || "");
        e.tool_input = output.args || {};
        ans = await call(e, input.sessionID);
        if (ans.context && input.callID) held.set(input.callID, String(ans.context));
        if (ans.stop) abort(input.sessionID);
      } catch (e) {
        ans = {};
      }
      // Thrown, the tool does not run: the model reads the reason as its result.
      if (ans.block) throw new Error(String(ans.block));
    },

    "tool.execute.after": async (input, output) => {
      try {
        const e = base("tool.execute.after", input.sessionID);
        e.tool_name = String(input.tool || "");
        e.tool_use_id = String(input.callID || "");
        e.tool_input = input.args || {};
        e.tool_response = { title: String((output && output.title) || ""), metadata: pick(output && output.metadata) };
        const ans = await call(e, input.sessionID);
        const notes = [held.get(input.callID), ans.context, ans.stop].filter(Boolean).join("\n\n");
        held.delete(input.callID);
        if (notes && output) output.output = (output.output ? output.output + "\n\n" : "") + notes;
        if (ans.stop) abort(input.sessionID);
      } catch (e) {}
    },

    "shell.env": async (input, output) => {
      try {
        const chat = chats.get(input.sessionID) || chats.get(root(input.sessionID || ""));
        if (chat && output && output.env) output.env.CONCH_CHAT = chat;
      } catch (e) {}
    },

    dispose: async () => {
      try {
        await Promise.all([...roots].map((id) => call(base("dispose", id), id)));
      } catch (e) {}
    },
  };
};

// pick keeps the small fields of a tool's metadata (the file it changed, an
// exit code), never a file's content.
function pick(m) {
  const out = {};
  if (!m || typeof m !== "object") return out;
  for (const k of ["filepath", "filePath", "exit", "exists", "url"]) {
    if (m[k] !== undefined && typeof m[k] !== "object") out[k] = m[k];
  }
  return out;
}
