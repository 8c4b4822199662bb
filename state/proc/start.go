package proc

import (
	"context"
	"os"
	"os/exec"
)

// Detach starts argv in its own session (on Windows, its own process
// group, with no console), its streams on /dev/null, with
// env, and does not wait for it: conch never blocks on a command it starts
// for a chat or the person. It runs in dir (a folder that is not there: /),
// or, with dir "", where this command runs.
func Detach(argv, env []string, dir string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			dir = "/"
		}
		cmd.Dir = dir
	}
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// Run runs argv and waits for it (at most until ctx is done), and gives
// what it wrote.
func Run(ctx context.Context, argv, env []string) ([]byte, error) {
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Env = env
	return c.CombinedOutput()
}
