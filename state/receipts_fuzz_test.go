package state

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzReceiptName: a name in marks/ is taken for a receipt only when it
// is one receiptRel writes, for a valid chat id and a process.
func FuzzReceiptName(f *testing.F) {
	f.Add("c_2.1234.99887.json")
	f.Add("t_1.1.0.json")
	f.Add("c_2.-1.0.json")
	f.Add("c_2.01.0.json")
	f.Add("c_2.+1.00.json")
	f.Add("../c_2.1.1.json")
	f.Add("c_2.1.1.json.tmp")
	f.Fuzz(func(t *testing.T, name string) {
		if !validReceiptName(name) {
			return
		}
		parts := strings.Split(strings.TrimSuffix(name, ".json"), ".")
		pid, _ := strconv.Atoi(parts[1])
		start, _ := strconv.ParseUint(parts[2], 10, 64)
		if got := receiptRel(parts[0], Proc{PID: pid, Start: start}); got != receiptsDir+"/"+name {
			t.Fatalf("%q is taken for a receipt, but the receipt of its chat and process is %q", name, got)
		}
	})
}
