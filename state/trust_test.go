package state

import (
	"slices"
	"testing"
)

// TestTrustedIsYoursChain: Trusted holds for the person's own origins with
// no person taint, tasks included (they carry their parent's origin), and
// a summary answers as its record does.
func TestTrustedIsYoursChain(t *testing.T) {
	cases := []struct {
		c    Chat
		want bool
	}{
		{Chat{Origin: ""}, true},
		{Chat{Origin: "app:telegram"}, true},
		{Chat{Origin: "routine"}, true},
		{Chat{Origin: "peer"}, false},
		{Chat{Origin: "client"}, false},
		{Chat{Origin: "artifact"}, false},
		{Chat{Origin: "", Taint: Taint{Person: []string{"bob"}}}, false},
		{Chat{Origin: "", Task: &TaskInfo{State: TaskRunning}}, true},
		{Chat{Origin: "peer", Task: &TaskInfo{State: TaskRunning}}, false},
		{Chat{Origin: "", Taint: Taint{Outside: []string{"https://x"}}}, true},
	}
	for _, tc := range cases {
		tc.c.ID = "c_1"
		if tc.c.Task != nil {
			tc.c.ID = "t_1"
		}
		if got := tc.c.trusted(); got != tc.want {
			t.Errorf("%+v: Trusted %v, want %v", tc.c, got, tc.want)
		}
		if got := summarize(&tc.c).trusted(); got != tc.want {
			t.Errorf("%+v: summary Trusted %v, want %v", tc.c, got, tc.want)
		}
	}
}

// TestInheritNeverRaises: what is made from a chat is never more yours than
// it, and carries its taint; it may be less yours.
func TestInheritNeverRaises(t *testing.T) {
	origins := []string{"", "app:x", "routine", "peer", "client", "artifact"}
	tx := &Tx{}
	for _, from := range origins {
		for _, asked := range origins {
			c := &Chat{ID: "c_2", Origin: asked}
			f := &Chat{ID: "c_1", Origin: from, Taint: Taint{Outside: []string{"u"}, Person: []string{"bob"}}}
			tx.Chats().inherit(c, f)
			if originRank(c.Origin) > originRank(from) || originRank(c.Origin) > originRank(asked) {
				t.Errorf("from %q asked %q: got %q", from, asked, c.Origin)
			}
			if !slices.Contains(c.Taint.Outside, "u") || !slices.Contains(c.Taint.Outside, "chat c_1") || !slices.Contains(c.Taint.Person, "bob") {
				t.Errorf("from %q: taint %+v not carried", from, c.Taint)
			}
		}
	}
}

// TestCarries: words cross to a reader only when they bring nothing from
// outside that it has not read; a chat's own words always reach it.
func TestCarries(t *testing.T) {
	src := &Chat{ID: "t_1", Taint: Taint{Outside: []string{"u", "v"}}}
	for _, tc := range []struct {
		reader *Chat
		want   bool
	}{
		{nil, false},
		{src, false},
		{&Chat{ID: "c_1"}, true},
		{&Chat{ID: "c_1", Taint: Taint{Outside: []string{"u"}}}, true},
		{&Chat{ID: "c_1", Taint: Taint{Outside: []string{"v", "u", "w"}}}, false},
	} {
		if got := carries(src, tc.reader); got != tc.want {
			t.Errorf("reader %+v: carries %v, want %v", tc.reader, got, tc.want)
		}
	}
	if carries(&Chat{ID: "c_2"}, &Chat{ID: "c_1"}) {
		t.Error("a chat that read nothing from outside carries nothing")
	}
}
