// Command measure is bench/run's helper: what a shell does badly. It times
// commands side by side (when hyperfine is not there) or reads hyperfine's
// export, measures a command's peak memory through getrusage, and runs the
// 32-process load of SPEC §10.
//
//	measure time -runs N NAME=COMMAND...   interleaved runs; prints "NAME median_ms"
//	                                       (a last word <FILE is the command's standard input;
//	                                       first words KEY=VALUE are set in its environment)
//	measure hyperfine FILE                 hyperfine's --export-json; prints "NAME median_ms"
//	measure rss -runs N COMMAND [ARG]...   prints the largest peak RSS, in KiB
//	measure load -procs 32 -ops 200 CONCH  each process: ops × (step, notes) as its own chat
//	measure wake -rounds 50 CONCH          a blocking wait woken by the target's reply end
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "time":
		err = timeCmd(args)
	case "hyperfine":
		err = hyperfineCmd(args)
	case "rss":
		err = rssCmd(args)
	case "load":
		err = loadCmd(args)
	case "wake":
		err = wakeCmd(args)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: measure time|hyperfine|rss|load|wake ...")
	os.Exit(2)
}

// timeCmd runs each command in turn, round after round, so that whatever
// else the machine does falls on all of them alike, and prints the medians.
func timeCmd(args []string) error {
	fs := flag.NewFlagSet("time", flag.ExitOnError)
	runs := fs.Int("runs", 200, "timed runs of each command")
	warmup := fs.Int("warmup", 20, "untimed runs first")
	_ = fs.Parse(args)
	type bench struct {
		name  string
		argv  []string
		stdin []byte
		env   []string // KEY=VALUE, beside the environment of measure
		took  []time.Duration
	}
	var bs []*bench
	for _, a := range fs.Args() {
		name, command, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want NAME=COMMAND", a)
		}
		b := &bench{name: name, argv: strings.Fields(command)}
		for len(b.argv) > 1 && strings.Contains(b.argv[0], "=") {
			b.env, b.argv = append(b.env, b.argv[0]), b.argv[1:]
		}
		if last := b.argv[len(b.argv)-1]; strings.HasPrefix(last, "<") {
			data, err := os.ReadFile(last[1:])
			if err != nil {
				return err
			}
			b.argv, b.stdin = b.argv[:len(b.argv)-1], data
		}
		bs = append(bs, b)
	}
	for i := 0; i < *warmup+*runs; i++ {
		for _, b := range bs {
			cmd := exec.Command(b.argv[0], b.argv[1:]...)
			if b.stdin != nil {
				cmd.Stdin = bytes.NewReader(b.stdin)
			}
			if b.env != nil {
				cmd.Env = append(os.Environ(), b.env...)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			began := time.Now()
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s: %v: %s", b.name, err, stderr.Bytes())
			}
			if i >= *warmup {
				b.took = append(b.took, time.Since(began))
			}
		}
	}
	for _, b := range bs {
		sort.Slice(b.took, func(i, j int) bool { return b.took[i] < b.took[j] })
		fmt.Printf("%s %.3f\n", b.name, float64(b.took[len(b.took)/2].Microseconds())/1000)
	}
	return nil
}

func hyperfineCmd(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("hyperfine FILE")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var out struct {
		Results []struct {
			Command string  `json:"command"`
			Median  float64 `json:"median"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	for _, r := range out.Results {
		fmt.Printf("%s %.3f\n", r.Command, r.Median*1000)
	}
	return nil
}

// rssCmd runs the command and reads its peak resident memory from
// getrusage, as /usr/bin/time -v would.
func rssCmd(args []string) error {
	fs := flag.NewFlagSet("rss", flag.ExitOnError)
	runs := fs.Int("runs", 5, "runs; the largest peak counts")
	_ = fs.Parse(args)
	argv := fs.Args()
	if len(argv) == 0 {
		return fmt.Errorf("rss COMMAND")
	}
	peak := int64(0)
	for i := 0; i < *runs; i++ {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
			peak = ru.Maxrss // KiB on Linux
		}
	}
	fmt.Println(peak)
	return nil
}

// loadCmd runs procs processes' worth of harness at once on one home: each
// acts as its own chat (c_1, c_2, …) and runs ops × (step, notes), one
// command after the other, as a harness does around every tool call.
func loadCmd(args []string) error {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	procs := fs.Int("procs", 32, "processes at once")
	ops := fs.Int("ops", 200, "step + notes pairs each")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("load CONCH")
	}
	conch := fs.Arg(0)
	var (
		mu                      sync.Mutex
		timeouts, failed, total int
		firstFailure            string
		wg                      sync.WaitGroup
	)
	began := time.Now()
	for p := 1; p <= *procs; p++ {
		wg.Add(1)
		go func(chat string) {
			defer wg.Done()
			for i := 0; i < *ops; i++ {
				for _, argv := range [][]string{{"step", "run", "--chat", chat}, {"notes", "--chat", chat}} {
					var stderr bytes.Buffer
					cmd := exec.Command(conch, argv...)
					cmd.Stderr = &stderr
					err := cmd.Run()
					mu.Lock()
					total++
					if err != nil {
						failed++
						if strings.Contains(stderr.String(), "not had in") {
							timeouts++
						}
						if firstFailure == "" {
							firstFailure = fmt.Sprintf("conch %s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(stderr.String()))
						}
					}
					mu.Unlock()
				}
			}
		}(fmt.Sprintf("c_%d", p))
	}
	wg.Wait()
	took := time.Since(began)
	fmt.Printf("%d %d %.3f %.0f %d %d\n", *procs, total, took.Seconds(), float64(total)/took.Seconds(), timeouts, failed)
	if firstFailure != "" {
		fmt.Fprintln(os.Stderr, "first failure:", firstFailure)
	}
	return nil
}

// wakeCmd measures how soon a blocking conch wait wakes once its target's
// reply ends (SPEC §10: median ≤ 20 ms, 99th ≤ 100 ms). Each round: the
// target (c_1) starts a reply; the waiter (c_2) blocks on it, and says on
// standard error when it is ready; then the target's reply ends. The wake
// is the time from that reply end command's exit to the waiter's exit
// (the reply ended a little before its command exited, so this errs short
// by the end command's own exit, a fraction of a millisecond); it prints
// "rounds median_ms p99_ms", and the same from the end command's start.
func wakeCmd(args []string) error {
	fs := flag.NewFlagSet("wake", flag.ExitOnError)
	rounds := fs.Int("rounds", 50, "rounds")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("wake CONCH")
	}
	conch := fs.Arg(0)
	run := func(args ...string) error {
		out, err := exec.Command(conch, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("conch %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	dir, err := os.MkdirTemp("", "wake")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, title := range []string{"Target", "Waiter"} {
		if err := run("chat", "new", "--title", title, "--folder", dir); err != nil {
			return err
		}
	}
	pid := strconv.Itoa(os.Getpid())
	var wake, whole []time.Duration
	for i := 0; i < *rounds; i++ {
		if err := run("reply", "start", "--chat", "c_1", "--pid", pid); err != nil {
			return err
		}
		w := exec.Command(conch, "wait", "chat", "c_1", "--timeout", "30s", "--chat", "c_2")
		stderr, err := w.StderrPipe()
		if err != nil {
			return err
		}
		w.Stdout = io.Discard
		if err := w.Start(); err != nil {
			return err
		}
		// Blocking: it says so once it watches the target.
		if _, err := bufio.NewReader(stderr).ReadString('\n'); err != nil {
			return fmt.Errorf("the wait said nothing: %v", err)
		}
		began := time.Now()
		if err := run("reply", "end", "--chat", "c_1", "--text", "done"); err != nil {
			return err
		}
		ended := time.Now()
		go func() { _, _ = io.Copy(io.Discard, stderr) }()
		if err := w.Wait(); err != nil {
			return fmt.Errorf("the wait: %v", err)
		}
		woke := time.Now()
		wake = append(wake, max(0, woke.Sub(ended)))
		whole = append(whole, woke.Sub(began))
	}
	q := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds()) / 1000
	}
	fmt.Printf("%d %.3f %.3f %.3f %.3f\n", *rounds, q(wake, 0.5), q(wake, 0.99), q(whole, 0.5), q(whole, 0.99))
	return nil
}
