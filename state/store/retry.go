package store

import "time"

// retried runs op until it succeeds, fails for good (transient says no)
// or has been failing for longer than patience, waiting a little longer
// each time; it gives op's last error.
func retried(op func() error, transient func(error) bool, patience time.Duration) error {
	give := time.Now().Add(patience)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := op()
		if err == nil || !transient(err) || time.Now().Add(wait).After(give) {
			return err
		}
		time.Sleep(wait)
	}
}
