package install

// A Note is what an install says of one file beside its outcome (a backup,
// the events): a value of the package that knows it, install's own below
// or a recipe's in its adapter's file, said in render's words
// (render.InstallNote). install itself says nothing.
type Note interface{ InstallNote() }

// NotConchs: a file by the name of conch's own that is not conch's, left
// as it is by a removal.
type NotConchs struct{}

// OwnRemoved: a hooks file of conch's own name that a removal left holding
// nothing of anyone else's is gone, with no backup.
type OwnRemoved struct{}

// FolderRemoved: a folder made for conch's file, which its removal left
// empty, removed too.
type FolderRemoved struct{ Dir string }

// MCPNotConchs: an MCP server named conch that does not run conch mcp,
// left as it is by a removal.
type MCPNotConchs struct{}

func (NotConchs) InstallNote()     {}
func (OwnRemoved) InstallNote()    {}
func (FolderRemoved) InstallNote() {}
func (MCPNotConchs) InstallNote()  {}
