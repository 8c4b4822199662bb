package state

import (
	"fmt"
	"strings"
	"testing"

	"github.com/conch-sh/conch/state/store"
)

// TestEachClaimHandsEachOnce: a claims.json the hand reader gives up on
// part way (a key it does not know, in the third claim) is read whole by
// encoding/json, and the claims the hand reader had handed over are not
// handed over again.
func TestEachClaimHandsEachOnce(t *testing.T) {
	var claims []string
	for i := 1; i <= 5; i++ {
		extra := ""
		if i == 3 {
			extra = `,"extra":true`
		}
		claims = append(claims, fmt.Sprintf(`{"chat":"c_%d","pattern":"/w/%d.go","glob":false,"since":"2026-11-29T12:00:00Z","until":"2026-11-29T14:00:00Z","computer":"test"%s}`, i, i, extra))
	}
	h := testHome(t)
	s := h.Store()
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit([]store.Write{{Key: claimsRel, Data: []byte(`{"claims":[` + strings.Join(claims, ",") + `]}`)}}); err != nil {
		t.Fatal(err)
	}
	unlock()
	var got []string
	err = h.View(func(v *View) error {
		return v.Claims().each(func(cl *Claim) bool {
			got = append(got, cl.Chat)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "c_1 c_2 c_3 c_4 c_5" {
		t.Fatalf("handed over %v, want each of the five once", got)
	}
}
