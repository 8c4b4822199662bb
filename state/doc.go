// Package state is conch's domain: the records, the rules that say who
// may change what, and the transactions that change them.
//
// Every write happens inside Home.Update, under the store's lock, on a Tx;
// Home.View reads without the lock, on a View, which has no method that
// writes (a Tx is a View and the changes to write). Every record is
// replaced whole, so readers take no lock. The package never
// prints and never exits: it returns values and errors. It never touches
// the file system: records are read and written through a store.Store
// (package store), which holds everything that depends on one machine's
// storage.
//
// # Commits
//
// A transaction's change is handed to the store (package store) as one
// commit, all or nothing, its records in commitRank's order; the store says
// how (for files: events first, then one rename or a journal). Whatever
// fails before the commit point changed nothing: Update returns the error.
// Whatever fails after it is a warning, and the change stands.
//
// Recording is best-effort (SPEC §7): a transaction that recorded events
// and could not be committed is run once more recording none (each a
// warning), so a failed append never fails the command and never moves a
// head or a watcher's cursor past what was written. fn must therefore
// change nothing but its transaction (Tx.After for what follows a commit).
//
// A reader without the lock sees each record old or new: during a commit,
// the ones before in commitRank's order new, the rest old, so a record
// never names one that is not there yet.
//
// It holds the rules of conch's specification (SPEC, and the
// issues that extend it), each in one place. To find a rule: its section
// below, then the file and function that hold it, then the testscript
// that pins it (testdata/script/NAME.txtar; a Go test file or a benchmark
// where a script cannot). A file without a folder is in state/; a path
// is from the repository's root. TestRulesMap holds every row to files,
// functions and scripts that exist: a file or function moved or renamed
// moves its row too.
//
// # Rules map
//
//	§1  home: CONCH_HOME else ~/.conch           → home.go (Open) → home_default_dir
//	§1  home 0700, files 0600, made on a write   → state/store/fs.go (WriteFile) → chat_new, doctor_perms
//	§1  computer defaults to the host name       → home.go (Open) → home_computer_default
//	§1  acting as: --chat, else CONCH_CHAT       → cli/root.go (prepare) → set_rights
//	§1  CONCH_NOW pins the clock                 → cli/root.go (clock) → gc_retention
//	§1  chat ids in order, a --key's same chat   → chats.go (ChatsTx.Create) → chat_new
//	§1  working is derived from a running reply  → chats.go (working) → reply_working
//	§1  a reply's harness: pid and start time    → chats.go (Alive) → reply_pid_reuse
//	§1  reply start ends the running one         → replies.go (RepliesTx.Start) → reply_working
//	§1  a step with no reply starts one          → replies.go (RepliesTx.Step) → reply_working
//	§1  tasks and their states                   → tasks.go (TasksTx.Create, TasksTx.Set) → task_basics, task_ended_states
//	§1  yours, offers together, listed           → chats.go (yours, offersTogether) → list_rules, threat_outside_agent_listens
//	§1  not yours: the same "no chat"            → chats.go (ChatsView.Named) → message_receivers, wait_not_yours
//	§1  read access from a chat                  → chats.go (canSee) → status_access, threat_assistant_reads
//	§1  place: computer, folder, links, case     → place.go (samePlace) → notes_place
//	§2  who may change what                      → chats.go (mayChange) → set_rights
//	§2  a child gets at most its parent's mode   → chats.go (ChatsTx.Create) → rights_mode_cap
//	§2  a chat deletes only itself               → chats.go (ChatsTx.Delete) → rights_delete
//	§2  the person's press: a terminal, no chat  → chats.go (Press) → request_confirm, message_inbound
//	§2  exit codes, mapped in one place          → cli/root.go (exitCode) → exit_codes, exit_codes_kinds
//	§2  --json: public views, never the records  → render/json.go (ChatView, ChatJSON) → json_version, threat_show_json
//	§2  "json_version": 2 first on every object  → render/printer.go (WriteJSON, Versioned) → json_version, render/json_test.go
//	§2  text from a file, - for standard input   → cli/deps.go (readText) → flags_from_files
//	§3  list order, twelve, the header's counts  → list.go (ChatsView.List) → list_order
//	§3  changing NAME +N, family words           → list.go (ChatsView.List) → list_changing_one, list_family_words
//	§3  a summary index, not every record        → index.go (ChatsTx.updateIndex, ChatsView.scanIndex) → state/index_test.go
//	§4  notes: what is said, in order            → notes.go (NotesView.For) → notes_order
//	§4  said, then marked; --peek marks nothing  → notes.go (TellNotes, NotesTx.Mark) → notes_reader, notice_frozen, cli/hook_marks_test.go
//	§4  the reader: four lines, each chat once   → notes.go (NotesView.readerLines) → notes_reader, notes_limits, reader_after_edit
//	§4  --max-chars: whole messages stay due     → cli/notes.go (printNotes) → notes_max_chars
//	§4  a stopped reply hears only the stop      → replies.go (StopPending) → stop_notes_only
//	§4  conch prompt                             → render/prompt.go (Prompt) → prompt_words
//	§5  send: offers together, not in plan mode  → messages.go (MessagesTx.Send, MessagesView.together) → message_send
//	§5  receivers: the person's own, own tasks   → messages.go (receives) → message_receivers, threat_closed_receiver
//	§5  at a step, or at a reply's start         → messages.go (MessagesView.deliver, inboxNow) → message_delivery
//	§5  a reply started by a message             → messages.go (MessagesTx.startReply) → message_start_reply, hook_claude_current
//	§5  the frame and the fence                  → render/messages.go (MessageBlock) → message_send, message_quoting
//	§5  taint travels with a message             → chats.go (ChatsView.carryTaint) → threat_words_taint
//	§5  checked again before it is read          → messages.go (MessagesTx.mark, takes) → message_recheck
//	§5  inbound accept, hold, refuse             → messages.go (takes) → message_inbound
//	§5  cards, both sides                        → messages.go (MessagesView.Cards) → message_cards, threat_written_unaware
//	§5  a deleted chat tells its writers         → messages.go (MessagesTx.onDelete) → message_delete
//	§5  --watch                                  → watch_api.go (ChatsTx.watch) → message_watch
//	§5  --key: one send, one answer              → messages.go (MessagesTx.keyed) → message_key
//	§5  stop: Auto, or ask the person            → stop.go (RepliesTx.Stop) → stop_auto, stop_ask, stop_refused
//	§5  --key on a stop                          → stop.go (RepliesTx.keyedStop) → stop_key
//	§5  requests: confirm, deny                  → requests.go (RequestsTx.Confirm, RequestsTx.Deny) → request_confirm, request_deny
//	§5  chains: the person's word begins one     → chains.go (joinChain, MessagesTx.currentChain) → bound_loop_two, bound_loop_three
//	§5  8 messages in one chain                  → chains.go (messagesBound, countMessage) → bound_loop_three, threat_loop
//	§5  4 replies started by messages in a chain → chains.go (startsBound, countStart) → bound_loop_two, threat_loop
//	§5  3 messages from one chat to another      → chains.go (pairBound, countMessage) → bound_pair, wait_bounds
//	§5  5 messages waiting for a chat            → chains.go (waitingBound) → bound_waiting
//	§5  the same words once in 10 minutes        → chains.go (recentBounds, countRecent) → bound_repeat, list_recent_window
//	§5  10 messages one to another in 10 minutes → chains.go (recentBounds, countRecent) → threat_person_window
//	§5  a bound named, typed                     → errors.go (BoundError) → bound_pair, state/chains_test.go
//	§6  wait chat, wait task                     → waits.go (WaitsTx.Start) → wait_at_once, wait_task
//	§6  still working                            → waits.go (stillWorking) → wait_incoming
//	§6  no wait in a loop                        → waits.go (WaitsView.waitLoop) → wait_loop
//	§6  blocking, --timeout, 124                 → waits_block.go (Await) → wait_block
//	§6  registered and detached; the wake        → waits.go (WaitsTx.endWait) → wait_detached, wait_kill
//	§6  the change that ends the waits on it     → waits.go (WaitsTx.endWaitsOn) → wait_needs_you, wait_delete
//	§6  what the waiting chat hears              → waits.go (WaitsView.endingOf, tail) → wait_scrub, threat_reply_reaches_waiter
//	§6  taint travels through a wait             → waits.go (WaitsTx.endWait) → wait_taint
//	§6  wait list, wait cancel                   → waits.go (WaitsView.List, WaitsTx.Cancel) → wait_list
//	§7  events: kinds, actor, sequences          → events.go (LogTx.record, actorOf) → log_events
//	§7  recording is best-effort                 → events.go (LogTx.Record) → log_besteffort
//	§7  cursors: frozen watermark, one notice    → cursors.go (land, drain) → notice_frozen, notice_reopen
//	§7  never of one's own events                → cursors.go (land) → notice_self
//	§7  log-only kinds                           → events.go (LogTx.record) → notice_logonly
//	§7  a notice wakes, once a minute            → cursors.go (LogTx.notify) → notice_wake, watch_wake_minute
//	§7  watch, unwatch, reset, delete            → watch_api.go (ChatsTx.Watch, ChatsTx.Unwatch, ChatsTx.Reset) → watch_explicit, watch_reset, watch_delete
//	§7  cursors expire after 30 days             → gc.go (LogTx.expireCursors) → watch_expiry, watch_ack_touches
//	§7  status --since, history_gap              → events.go (LogView.Status) → status_json, gc_retention
//	§7  retention: 30 days, watermark first      → gc.go (GC, DefaultLimits) → gc_retention, watch_retention, gc_stopped
//	§7  at most 50,000 events, oldest first      → gc.go (DefaultLimits) → state/log_test.go
//	§7  adopt and scan, self-echo                → adopt.go (SessionsTx.Adopt, SessionsTx.ApplyLook, isEcho) → adopt_scan, scan_echo_window, adopt_hooked
//	§8  cleaning                                 → render/words.go (Clean) → threat_clean_everywhere, threat_origin
//	§8  quoting inside a fence                   → render/words.go (Quote) → message_quoting, threat_fence_close
//	§8  letters that only look like conch's      → state/fold/fold.go (String) → threat_lookalike
//	§8  secrets taken out                        → state/scrub/scrub.go (Scrub) → wait_scrub, threat_secrets_fields
//	§9  a record written whole, synced           → state/store/files.go (Commit) → state/faultfs_test.go
//	§9  locks beside the data, a bounded wait    → lock/lock.go (Exclusive) → lock/lock_test.go
//	§9  read-only commands create nothing        → home.go (View) → home_files, home_readonly_more
//	§9  never lost, never shown twice            → messages.go (MessagesTx.mark) → cli/kill_senders_test.go
//	§9  marks count only for a command that got out → receipts.go (receipt, NotesTx.undoDeadMarks, Confirm) → state/receipts_test.go, cli/kill_marks_test.go, cli/kill_batch_test.go
//	§9  a full disk: taken back, or refused       → state/store/journal.go (takeBack, CutShort) → state/store/journal_test.go, cli/full_disk_test.go
//	§9  a read-only home is one finding           → state/store/inspect.go (ErrReadOnly) → state/readonly_test.go
//	§9  a record that cannot be read; doctor     → doctor.go (Doctor) → doctor_torn, doctor_shape
//	§9  bad input changes nothing                → chats.go (validText) → input_bad, args_not_text
//	§9  bounds on every stored field             → bounds.go (maxBytes, addSource) → threat_field_bounds
//	§10 the budgets                              → cli/step.go (newStepCmd) → cli/startup_test.go, testdata/bench/run
//	§11 hook claude: events to commands          → harness/handle.go (Handle) → hook_claude_events, hook_claude_current
//	§11 a harness's event names, decoded         → harness/claude.go (claudeKind, decodeHook) → hook_claude_events
//	§11 what a harness can carry in an answer    → harness/caps.go (Capabilities, Kinds) → guard_codex, harness/handle_test.go
//	§11 a hook never breaks its session          → cli/cap_hooks.go (runHook) → hook_claude_garbage
//	§11 an adapter is one value, one file each   → harness/adapter.go (Adapter, Adapters) → harness/adapter_test.go
//	§11 an answer in types, said in cli          → harness/event.go (Answer, Wording) → hook_claude_current, harness/handle_test.go
//	§11 a session is a chat, subagents children  → sessions.go (SessionsTx.Chat) → hook_claude_current, e2e_two_sessions
//	§11 Stop delivers a start-reply message      → sessions.go (SessionsTx.ContinueWithMessage) → hook_claude_current
//	§11 tools to families                        → harness/tools.go (Family, commits) → hook_claude_tools
//	§11 install claude, --remove                 → harness/claude.go (claudeInstall) → install_claude, install_claude_subfolder
//	§11 codex: hooks and notify                  → harness/codex.go (codexKind, decodeNotify) → hook_codex_events, hook_codex_0169
//	§11 install codex                            → harness/codex.go (codexInstall) → install_codex, install_codex_project
//	§11 copilot: hooks, a stop ends the turn     → harness/copilot.go (decodeCopilot, encodeCopilot) → hook_copilot_events, cli/e2e/copilot_test.go
//	§11 install copilot                          → harness/copilot.go (copilotInstall) → install_copilot
//	§11 cursor: hooks, context at start only     → harness/cursor.go (decodeCursor, encodeCursor) → hook_cursor_events
//	§11 install cursor                           → harness/cursor.go (cursorInstall) → install_cursor
//	§12 the storage behind one interface         → state/store/store.go (Store) → state/store/store_test.go
//	§12 nothing without credentials              → state/store/natsstore/join/join.go (Refusal, ParseToken) → cli/across_test.go, state/store/natsstore/join/join_test.go
//	§12 a hub's own credentials and CA           → state/store/natsstore/hub/auth.go (LoadAuth, Hosts) → state/store/natsstore/hub/auth_test.go, backend_doctor
//	§12 commands never travel                    → commands.go (ownCommands, ChatsTx.keepCommands) → state/computers_test.go, cli/across_test.go, backend_migrate
//	§12 records from the server are input        → state/store/natsstore/keys.go (decodeKey, listNames, parseJournal) → state/store/natsstore/keys_test.go, state/shared_fuzz_test.go
//	§12 a cluster, one node lost or frozen       → state/store/natsstore/natsstore.go (leaderGet, transient) → cli/cluster_test.go
//	§13 claims                                   → claims.go (ClaimsTx.Take) → claim_basic, claim_overlap, claim_bound, claim_ends
//	§13 the guard                                → guard.go (ClaimsView.Guard, ClaimsView.guardCheckout) → guard_claude, guard_codex, guard_checkout
//	§13 a claim reaches the chat's place         → reach.go (reachOf, ChatsTx.moveReach) → threat_claim_reach
//	§13 links resolved on both sides             → claims.go (resolvePattern) → threat_claim_links
//	§13 what moves work, through wrappers        → shellcmd.go (movesCheckout) → threat_guard_discard, threat_guard_wrappers
//	§13 the checkout guard judges by work tree   → guard.go (ClaimsView.guardCheckout, sameTree) → threat_guard_discard, threat_guard_wrappers
//	§13 worktrees of one repository: a note      → guard.go (ClaimsView.guardWorktrees, ClaimsView.Worktrees) → threat_guard_worktrees
//	§13 claims bounded as a whole                → claims.go (MaxClaimsAll, MaxClaimsBytes) → threat_claim_bounds
//	§13 the guard tells outsiders nothing        → guard.go (ClaimsView.Guard) → threat_guard_untrusted
//	§13 a session variable never raises trust    → chats.go (MoreYours) → threat_session_trust
//	§13 conch top                                → top.go (TopView.Person) → top_once
//	§13 notifications                            → notify.go (rippleTx.tellPerson) → notify_events, notify_once_a_minute, notify_nothing, threat_notify_clock
//	§13 trust: inherited, origins, the clock     → chats.go (ChatsView.inherit) → threat_inherit_harness, threat_chat_new_parent, threat_clock_retention
//	§13 conch mcp: each tool its command         → cli/mcpserver/server.go (add, call) → cli/mcpserver/server_test.go, cli/e2e/mcp_claude_test.go
//	§13 conch mcp acts as the session's chat     → cli/mcp.go (Serving, ActingAs) → mcp_acts_as_chat, mcp_taint_fence
//	§13 a session's chat by its harness process  → index.go (ChatsView.RunningIn) → cli/e2e/mcp_codex_test.go
//	§13 gemini: CONCH_CHAT in conch's commands   → conchcmd.go (RunsConchUnnamed) → state/conchcmd_test.go, cli/e2e/gemini_test.go
//	§13 codex TUI: the TUI's own CONCH_CHAT      → harness/codex.go (decodeCodex) → cli/hook_codex_test.go, cli/e2e/codex_tui_test.go
//	§13 a locked home said in every answer       → cli/cap_hooks.go (lockSaid) → cli/hook_codex_test.go
//	§13 pi: the turn's end before the session's  → harness/pi.go (piInstall) → harness/pi_plugin_test.go, cli/e2e/pi_test.go
//	§13 other chats' words fenced in a tool      → cli/mcpserver/server.go (withWords, fencedCards) → mcp_taint_fence, cli/mcpserver/quote_test.go
//	§13 a chat known only through MCP            → cli/mcpserver/server.go (ownChat) → mcp_acts_as_chat, cli/e2e/mcp_cross_test.go
//	§13 conch mcp in the harnesses' settings     → harness/install/mcp.go (MCPFile, TOMLMCPFile) → install_mcp, harness/install/mcp_test.go
//	§13 plain conch links no MCP SDK             → cli/mcp.go (runMcp) → cli/mcp_test.go
//	§13 an ended session woken by its own resume → resume.go (SessionsTx.KeepResume, WakesTx.Claim) → wake_resume, cli/e2e/wake_test.go
//	§13 a harness's resume, read from its help   → harness/resume.go (keepResume, claudeOwn, codexOwn) → wake_resume, harness/resume_test.go
//	§13 a wake never raises the mode             → resume.go (WakesTx.Claim) → wake_resume
//	§13 an open session waits for the person     → resume.go (WakesView.wakeWay) → wake_resume
//	§13 a wake that began no reply is dead       → resume.go (WakesTx.RunEnded, wakeDead) → wake_resume, wake_expire
//	§13 an open session's own channel            → resume.go (WakesView.wakeWay, WakesTx.Sent, LocalURL) → cli/e2e/wake_test.go, state/resume_test.go
package state
