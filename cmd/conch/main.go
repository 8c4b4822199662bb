package main
import (
 _ "github.com/spf13/cobra"
 _ "github.com/gofrs/flock"
 _ "github.com/BurntSushi/toml"
 _ "github.com/rogpeppe/go-internal/testscript"
 _ "github.com/fsnotify/fsnotify"
 _ "github.com/google/renameio/v2"
 _ "golang.org/x/term"
)
func main(){}
