package state

import "time"

// The values a chat's fields may take (SPEC §1).
var (
	origins   = []string{"", "routine", "peer", "client", "artifact"} // and app:NAME
	statuses  = []string{StatusIdle, StatusNeedsYou, StatusStopped}
	Modes     = []string{ModePlan, ModeAsk, ModeAuto} // in order of trust
	inbounds  = []string{InboundAccept, InboundHold, InboundRefuse}
	families  = []string{"edit", "run", "read", "search", "browse", "talk", "wait", "other"}
	taskGoing = []string{TaskRunning, taskWaitingRoom, taskWaitingOK}
	taskEnded = []string{TaskDone, TaskUnverified, TaskFailed, TaskStopped, TaskInterrupted}
	outcomes  = []string{OutcomeFinished, OutcomeStopped, OutcomeFailed, outcomeNeedsYou}
)

const (
	StatusWorking  = "working" // derived from a running reply, never set
	StatusNeedsYou = "needs-you"
	StatusIdle     = "idle"
	StatusStopped  = "stopped"

	ModePlan = "plan"
	ModeAsk  = "ask"
	ModeAuto = "auto"

	InboundAccept = "accept"
	InboundHold   = "hold"
	InboundRefuse = "refuse"

	TaskRunning     = "running"
	taskWaitingRoom = "waiting-room"
	taskWaitingOK   = "waiting-ok"
	TaskDone        = "done"
	TaskUnverified  = "unverified"
	TaskFailed      = "failed"
	TaskStopped     = "stopped"
	TaskInterrupted = "interrupted"

	OutcomeFinished = "finished"
	OutcomeStopped  = "stopped"
	OutcomeFailed   = "failed"
	outcomeNeedsYou = "needs-you"
	// outcomeGone is a reply whose harness process went away: it did not finish.
	outcomeGone = "did-not-finish"
)

// Chat is one chat's record, CONCH_HOME/chats/ID.json. A task is a chat
// record too (its id starts with t_ and Task is set): it runs, steps, hears
// notes and has a log like any chat.
type Chat struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Origin string `json:"origin"`
	Folder string `json:"folder"`
	// Reach is the place the chat's claims may reach (issue 24): the work
	// tree holding its folder, resolved, as the harness or the person gave
	// the folder; a chat made from a chat reaches no further than its
	// maker. A chat's own reply start --folder does not move it.
	Reach    string `json:"reach,omitempty"`
	Computer string `json:"computer"`
	Status   string `json:"status"` // idle, needs-you, stopped; working is derived
	Mode     string `json:"mode"`
	Inbound  string `json:"inbound"`
	Taint    Taint  `json:"taint"`
	Archived bool   `json:"archived"`
	Goal     string `json:"goal"`
	Parent   string `json:"parent"`
	Browser  bool   `json:"browser"`
	Recovery bool   `json:"recovery"`
	// MCPOnly: the chat is known only through conch mcp, made for a
	// session whose hooks do not report to conch (issue 28): the others
	// see its messages and claims, never what it does. Its card says so.
	MCPOnly    bool      `json:"mcp_only,omitempty"`
	Created    time.Time `json:"created"`
	LastActive time.Time `json:"last_active"`
	WakeCmd    string    `json:"wake_cmd,omitempty"`
	StopCmd    string    `json:"stop_cmd,omitempty"`
	// CmdEnv is the environment wake_cmd and stop_cmd run with: the
	// harness's, as it was when it registered them (CmdEnvNames only).
	CmdEnv []string `json:"cmd_env,omitempty"`
	// cmdFolder is where they run on a shared home: the chat's folder
	// when they were set here, kept with them (commands.go).
	cmdFolder string
	Task      *TaskInfo `json:"task,omitempty"`

	Reply     *Reply `json:"reply"`      // the running reply, if any
	LastReply *Reply `json:"last_reply"` // the latest reply that ended
	Replies   int    `json:"replies"`    // how many replies it has begun

	// Chain is the chain of messages the chat is in now (§5).
	Chain string `json:"chain,omitempty"`
	// Wake, when set, was recorded before conch woke the chat: its next
	// reply is the wake's, whatever the harness says.
	Wake *Wake `json:"wake,omitempty"`
	// Stopped says who stopped the running or last reply, until it is heard.
	Stopped *StopNotice `json:"stopped,omitempty"`

	// Inbox is what this chat's next notes says from the messages
	// capability, oldest first: "m_N" a message due at any notes, "r_N" how
	// a stop this chat asked for ended, "gone m_N" the chat that m_N went
	// to was deleted. InboxStart holds the messages due only at a reply's
	// start (their sender had read from outside); Held, those that wait on
	// their card for the person. Kept on the record so that a notes with
	// nothing due reads no message file and takes no lock.
	Inbox      []string `json:"inbox,omitempty"`
	InboxStart []string `json:"inbox_start,omitempty"`
	Held       []string `json:"held,omitempty"`
	Cards      []string `json:"cards,omitempty"` // every message (m_N) and stop (r_N) to or from it, oldest first
	// Recent is what it sent in the last 10 minutes of the wall clock, for
	// the bounds on the same words to the same chat and on messages to one
	// chat (CONCH_NOW does not move them).
	Recent []RecentSend `json:"recent,omitempty"`

	Watchers []string `json:"watchers,omitempty"` // chats that watch this one
	Waiters  []string `json:"waiters,omitempty"`  // chats (or "person") that wait on this one
	Wrote    []string `json:"wrote,omitempty"`    // chats that sent this one messages
	Waiting  []string `json:"waiting,omitempty"`  // the chats and tasks it waits on
}

// Taint records what came into a chat. It only grows.
type Taint struct {
	Outside []string `json:"outside,omitempty"` // sources read from outside
	Person  []string `json:"person,omitempty"`  // whose words came in
}

// TaskInfo is what a task has beyond a chat.
type TaskInfo struct {
	State  string    `json:"state"`
	Result string    `json:"result"`
	Ended  time.Time `json:"ended,omitempty"`
}

// Reply is one reply of a chat: the running one, or the last that ended.
type Reply struct {
	ID        string    `json:"id"`
	Started   time.Time `json:"started"`
	Person    bool      `json:"person"`
	Chain     string    `json:"chain"`
	Unwatched bool      `json:"unwatched"`
	Folder    string    `json:"folder"`
	Computer  string    `json:"computer"`
	Place     string    `json:"place"` // the folder resolved, for comparing places
	// Tree and Repo: the git work tree holding the place and its
	// repository (place.Tree), worked out when the reply starts so that
	// a hook compares strings only; "" out of git.
	Tree      string    `json:"tree,omitempty"`
	Repo      string    `json:"repo,omitempty"`
	Family    string    `json:"family"`
	Tool      string    `json:"tool,omitempty"`
	StepSince time.Time `json:"step_since"`
	Files     []string  `json:"files"` // changed files, absolute, in the order first changed
	LastFile  string    `json:"last_file,omitempty"`
	PID       int       `json:"pid"`
	PIDStart  uint64    `json:"pid_start,omitempty"`
	Said      []string  `json:"said,omitempty"` // reader lines already said this reply
	Steps     int       `json:"steps"`          // steps taken; 0: the reply is at its start

	Ended   time.Time `json:"ended,omitempty"`
	Outcome string    `json:"outcome,omitempty"`
	Text    string    `json:"text,omitempty"`

	remote bool // it runs on another computer (set as it is read)
}

// Wake is a wake conch recorded before running a chat's wake_cmd.
type Wake struct {
	Reason  string    `json:"reason"` // message, wait, notice
	Message string    `json:"message,omitempty"`
	Chain   string    `json:"chain,omitempty"`
	At      time.Time `json:"at"`
	// Runner is conch's wake-run that took the wake (its harness's resume
	// runs under it), with its start time: once it is gone with no reply
	// begun, the wake is dead.
	Runner      int    `json:"runner,omitempty"`
	RunnerStart uint64 `json:"runner_start,omitempty"`

	dead bool // found dead as it was read (wakeDead)
}

// StopNotice is what a stopped chat hears.
type StopNotice struct {
	By      string    `json:"by"`
	ByTitle string    `json:"by_title"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
	Reply   string    `json:"reply"` // the reply that was stopped
	Heard   bool      `json:"heard"` // the exit-5 notice was given
}

// RecentSend is one message a chat sent lately: to whom, a digest of the
// words (never the words), and when.
type RecentSend struct {
	To  string    `json:"to"`
	Sum string    `json:"sum"`
	At  time.Time `json:"at"`
}

// counters allocates ids in order, CONCH_HOME/counters.json.
type counters map[string]int

// Keys remembers what a keyed command answered, CONCH_HOME/keys.json.
type Keys map[string]string
