package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func capHooks(s *codexSession) {
	var parts []string
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "PreCompact", "PostCompact", "Stop", "SessionEnd", "Interrupt", "SubagentStart", "SubagentStop"} {
		parts = append(parts, fmt.Sprintf(`%q: [{"hooks": [{"type": "command", "command": "/work/explore/cap.sh", "timeout": 3}]}]`, ev))
	}
	os.WriteFile(filepath.Join(s.codexHome, "hooks.json"), []byte(`{"hooks": {`+strings.Join(parts, ",")+`}}`), 0o644)
	f, _ := os.OpenFile(filepath.Join(s.codexHome, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n")
	f.Close()
	b, _ := os.ReadFile(filepath.Join(s.codexHome, "config.toml"))
	os.WriteFile(filepath.Join(s.codexHome, "config.toml"), append([]byte("notify = [\"/work/explore/notify.sh\"]\n"), b...), 0o600)
}

func dumpHome(t *testing.T, s *codexSession) {
	for i, r := range s.model.requests() {
		os.WriteFile(filepath.Join("/work/explore", fmt.Sprintf("req%d.json", i)), []byte(r.Path+"\n"+r.Raw), 0o644)
	}
	exec.Command("sh", "-c", "cp -r "+s.codexHome+"/sessions /work/explore/; cp "+s.codexHome+"/config.toml /work/explore/config.toml").Run()
}

func TestExploreCodex(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{webSearch("golang flock"), shell("call_1", "echo hi")}
		}
		return turn{say("Done here.")}
	})
	capHooks(s)
	res := s.exec("Say hello", "--dangerously-bypass-hook-trust")
	t.Logf("err=%v took=%v\nstdout:\n%s\nstderr:\n%s", res.err, res.took, res.stdout, res.stderr)
	dumpHome(t, s)
}

func TestExploreTUI(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	block := make(chan struct{})
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{shell("call_1", "echo hi")}
		case 1:
			return turn{say("First done.")}
		case 2:
			<-block
			return nil
		}
		return turn{say("Done here.")}
	})
	capHooks(s)
	ps := func() {
		out, _ := exec.Command("sh", "-c", "ps -eo pid,ppid,args | grep -i codex | grep -v grep | cut -c1-200").CombinedOutput()
		t.Log(string(out))
	}
	u := startTUI(t, s.dir, s.env(), s.bin)
	time.Sleep(4 * time.Second)
	t.Log(u.screen())
	ps()
	u.keys("F2")
	time.Sleep(500 * time.Millisecond)
	t.Log(u.screen())
	u.keys("k")
	time.Sleep(500 * time.Millisecond)
	t.Log(u.screen())
	u.keys("k")
	time.Sleep(500 * time.Millisecond)
	t.Log(u.screen())
	u.keys("Escape")
	u.typeText("/hooks")
	time.Sleep(300 * time.Millisecond)
	u.keys("Enter")
	time.Sleep(1 * time.Second)
	t.Log(u.screen())
	u.keys("t")
	time.Sleep(1 * time.Second)
	t.Log(u.screen())
	b, _ := os.ReadFile(filepath.Join(s.codexHome, "config.toml"))
	t.Log(string(b))
	u.keys("Escape")
	u.keys("Escape")
	u.typeText("Say hello")
	u.keys("Enter")
	time.Sleep(4 * time.Second)
	t.Log(u.screen())
	u.typeText("Think long")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	ps()
	u.typeText("/quit")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	t.Log(u.screen(), u.dead())
	ps()
	close(block)
	dumpHome(t, s)
}

func TestExploreOutputs(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		switch n {
		case 0:
			return turn{shell("call_1", "echo hi")}
		}
		return turn{say("Done here.")}
	})
	os.WriteFile("/work/explore/sm.sh", []byte("#!/bin/sh\ncat >/dev/null\necho \"$1\"\n"), 0o755)
	hj := `{"hooks": {
	 "SessionStart": [{"hooks": [{"type": "command", "command": "/work/explore/sm.sh '{\"systemMessage\":\"SYSMSG-START\"}'"}]}],
	 "PostToolUse": [{"hooks": [{"type": "command", "command": "/work/explore/sm.sh '{\"continue\":false,\"stopReason\":\"STOPPED-HERE\",\"systemMessage\":\"SYSMSG-POST\"}'"}]}]
	}}`
	os.WriteFile(filepath.Join(s.codexHome, "hooks.json"), []byte(hj), 0o644)
	res := s.exec("Say hello", "--dangerously-bypass-hook-trust", "--json")
	t.Logf("err=%v\nstdout:\n%s\nstderr:\n%s", res.err, res.stdout, res.stderr)
	for _, r := range s.model.mainRequests() {
		o, _ := r.outputOf("call_1")
		t.Log("REQ output:", o)
	}
}

func TestExploreTUI2(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		return turn{say("Done here.")}
	})
	capHooks(s)
	b, _ := os.ReadFile(filepath.Join(s.codexHome, "hooks.json"))
	hj := strings.Replace(string(b), `"UserPromptSubmit": [{"hooks": [`, `"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/work/explore/sm.sh '{\"systemMessage\":\"SYSMSG-UPS\"}'"},`, 1)
	os.WriteFile(filepath.Join(s.codexHome, "hooks.json"), []byte(hj), 0o644)
	u := startTUI(t, s.dir, s.env(), s.bin)
	u.waitScreen("Hooks need review", 20*time.Second)
	u.keys("Down")
	u.keys("Enter")
	time.Sleep(2 * time.Second)
	t.Log(u.screen())
	u.typeText("Say hello")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	t.Log(u.screen())
	u.typeText("/quit")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	t.Log(u.screen())
	out, _ := exec.Command("sh", "-c", "ps -eo pid,ppid,args | grep -i codex | grep -v grep | cut -c1-200").CombinedOutput()
	t.Log(string(out))
}

func TestExploreQuitMidTurn(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	block := make(chan struct{})
	s := newCodex(t, func(r *modelRequest, n int) turn {
		if n == 0 {
			<-block
			return turn{say("Late words.")}
		}
		return turn{say("Done here.")}
	})
	capHooks(s)
	u := s.startCodexTUI(nil)
	u.waitScreen("Hooks need review", 60*time.Second)
	u.keys("Down")
	u.keys("Enter")
	u.waitScreen("Ask Codex to do anything", 30*time.Second)
	u.typeText("Think long")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	u.typeText("/quit")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	t.Log(u.screen())
	b, _ := exec.Command("sh", "-c", "grep -o 'hook_event_name\":\"[A-Za-z]*' /work/explore/cap.jsonl").CombinedOutput()
	t.Log("before release:\n" + string(b))
	close(block)
	time.Sleep(4 * time.Second)
	b, _ = exec.Command("sh", "-c", "grep -o 'hook_event_name\":\"[A-Za-z]*' /work/explore/cap.jsonl; cat /work/explore/notify.jsonl | cut -c1-150").CombinedOutput()
	t.Log("after release:\n" + string(b))
	t.Log(s.daemons())
}

func TestExploreEscDaemon(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newCodex(t, func(r *modelRequest, n int) turn {
		if n == 0 {
			return nil
		}
		return turn{say("Done here.")}
	})
	capHooks(s)
	u := s.startCodexTUI(nil)
	u.waitScreen("Hooks need review", 60*time.Second)
	u.keys("Down")
	u.keys("Enter")
	u.waitScreen("Ask Codex to do anything", 30*time.Second)
	u.typeText("Think long")
	u.keys("Enter")
	time.Sleep(3 * time.Second)
	u.keys("Escape")
	time.Sleep(3 * time.Second)
	t.Log(u.screen())
	b, _ := exec.Command("sh", "-c", "grep -o 'hook_event_name\":\"[A-Za-z]*' /work/explore/cap.jsonl; cat /work/explore/ppid.txt | cut -c1-100").CombinedOutput()
	t.Log(string(b))
}

func TestExploreClamp(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	s := newCodex(t, func(r *modelRequest, n int) turn { return turn{say("Done here.")} })
	hj := `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 10}]}], "Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 600}]}]}}`
	os.WriteFile(filepath.Join(s.codexHome, "hooks.json"), []byte(hj), 0o644)
	res := s.exec("Say hello", "--dangerously-bypass-hook-trust")
	t.Logf("%s", res.stderr)
}
