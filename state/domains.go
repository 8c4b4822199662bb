package state

// The domain in small types (issue 26): a View's and a Tx's methods are
// reached through one small value per thing they are about,
// tx.Messages().Send(...), v.Chats().Get(id). Each is two pointers at most,
// returned by value: reaching one costs nothing.

// ChatsView reads chats: their records, the index, watches and commands.
type ChatsView struct{ v *View }

// ChatsTx reads and changes chats: their records, the index, watches and commands, in a transaction.
type ChatsTx struct {
	ChatsView
	tx *Tx
}

// Chats reads chats: their records, the index, watches and commands.
func (tx *View) Chats() ChatsView { return ChatsView{tx} }

// Chats reads and changes chats: their records, the index, watches and commands.
func (tx *Tx) Chats() ChatsTx { return ChatsTx{ChatsView{&tx.View}, tx} }

// RepliesView reads replies: their start, steps and end, and stops.
type RepliesView struct{ v *View }

// RepliesTx reads and changes replies: their start, steps and end, and stops, in a transaction.
type RepliesTx struct {
	RepliesView
	tx *Tx
}

// Replies reads replies: their start, steps and end, and stops.
func (tx *View) Replies() RepliesView { return RepliesView{tx} }

// Replies reads and changes replies: their start, steps and end, and stops.
func (tx *Tx) Replies() RepliesTx { return RepliesTx{RepliesView{&tx.View}, tx} }

// MessagesView reads messages between chats, and their chains.
type MessagesView struct{ v *View }

// MessagesTx reads and changes messages between chats, and their chains, in a transaction.
type MessagesTx struct {
	MessagesView
	tx *Tx
}

// Messages reads messages between chats, and their chains.
func (tx *View) Messages() MessagesView { return MessagesView{tx} }

// Messages reads and changes messages between chats, and their chains.
func (tx *Tx) Messages() MessagesTx { return MessagesTx{MessagesView{&tx.View}, tx} }

// WaitsView reads waits on chats and tasks.
type WaitsView struct{ v *View }

// WaitsTx reads and changes waits on chats and tasks, in a transaction.
type WaitsTx struct {
	WaitsView
	tx *Tx
}

// Waits reads waits on chats and tasks.
func (tx *View) Waits() WaitsView { return WaitsView{tx} }

// Waits reads and changes waits on chats and tasks.
func (tx *Tx) Waits() WaitsTx { return WaitsTx{WaitsView{&tx.View}, tx} }

// ClaimsView reads claims on files, and the guard that checks them.
type ClaimsView struct{ v *View }

// ClaimsTx reads and changes claims on files, and the guard that checks them, in a transaction.
type ClaimsTx struct {
	ClaimsView
	tx *Tx
}

// Claims reads claims on files, and the guard that checks them.
func (tx *View) Claims() ClaimsView { return ClaimsView{tx} }

// Claims reads and changes claims on files, and the guard that checks them.
func (tx *Tx) Claims() ClaimsTx { return ClaimsTx{ClaimsView{&tx.View}, tx} }

// SessionsView reads the harnesses' sessions: their chats, adoptions and resumes.
type SessionsView struct{ v *View }

// SessionsTx reads and changes the harnesses' sessions: their chats, adoptions and resumes, in a transaction.
type SessionsTx struct {
	SessionsView
	tx *Tx
}

// Sessions reads the harnesses' sessions: their chats, adoptions and resumes.
func (tx *View) Sessions() SessionsView { return SessionsView{tx} }

// Sessions reads and changes the harnesses' sessions: their chats, adoptions and resumes.
func (tx *Tx) Sessions() SessionsTx { return SessionsTx{SessionsView{&tx.View}, tx} }

// TasksView reads tasks.
type TasksView struct{ v *View }

// TasksTx reads and changes tasks, in a transaction.
type TasksTx struct {
	TasksView
	tx *Tx
}

// Tasks reads tasks.
func (tx *View) Tasks() TasksView { return TasksView{tx} }

// Tasks reads and changes tasks.
func (tx *Tx) Tasks() TasksTx { return TasksTx{TasksView{&tx.View}, tx} }

// RequestsView reads requests to the person (confirm, deny).
type RequestsView struct{ v *View }

// RequestsTx reads and changes requests to the person (confirm, deny), in a transaction.
type RequestsTx struct {
	RequestsView
	tx *Tx
}

// Requests reads requests to the person (confirm, deny).
func (tx *View) Requests() RequestsView { return RequestsView{tx} }

// Requests reads and changes requests to the person (confirm, deny).
func (tx *Tx) Requests() RequestsTx { return RequestsTx{RequestsView{&tx.View}, tx} }

// NotesView reads notes: what a chat hears, and the marks of what it heard.
type NotesView struct{ v *View }

// NotesTx reads and changes notes: what a chat hears, and the marks of what it heard, in a transaction.
type NotesTx struct {
	NotesView
	tx *Tx
}

// Notes reads notes: what a chat hears, and the marks of what it heard.
func (tx *View) Notes() NotesView { return NotesView{tx} }

// Notes reads and changes notes: what a chat hears, and the marks of what it heard.
func (tx *Tx) Notes() NotesTx { return NotesTx{NotesView{&tx.View}, tx} }

// LogView reads each chat's log of events, its cursors and its collection.
type LogView struct{ v *View }

// LogTx reads and changes each chat's log of events, its cursors and its collection, in a transaction.
type LogTx struct {
	LogView
	tx *Tx
}

// Log reads each chat's log of events, its cursors and its collection.
func (tx *View) Log() LogView { return LogView{tx} }

// Log reads and changes each chat's log of events, its cursors and its collection.
func (tx *Tx) Log() LogTx { return LogTx{LogView{&tx.View}, tx} }

// WakesView reads wakes: what wakes a chat, and the commands that do.
type WakesView struct{ v *View }

// WakesTx reads and changes wakes: what wakes a chat, and the commands that do, in a transaction.
type WakesTx struct {
	WakesView
	tx *Tx
}

// Wakes reads wakes: what wakes a chat, and the commands that do.
func (tx *View) Wakes() WakesView { return WakesView{tx} }

// Wakes reads and changes wakes: what wakes a chat, and the commands that do.
func (tx *Tx) Wakes() WakesTx { return WakesTx{WakesView{&tx.View}, tx} }

// TopView reads what conch top shows the person.
type TopView struct{ v *View }

// Top reads what conch top shows the person.
func (tx *View) Top() TopView { return TopView{tx} }

// rippleTx is what follows from a change (a reply ended, a chat deleted):
// the waits it ends, the person it tells.
type rippleTx struct{ tx *Tx }

func (tx *Tx) ripple() rippleTx { return rippleTx{tx} }
