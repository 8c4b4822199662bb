package state

import (
	"context"
	"time"

	"github.com/conch-sh/conch/state/scrub"
)

// pollEvery is the backstop look of a blocking wait: it catches what no
// file change says (a target's reply whose process went away) and anything
// the notification missed.
const pollEvery = 250 * time.Millisecond

// Await blocks until the actor's wait on target has ended, and returns it
// (to be said, then marked told with WaitTold); or until ctx is done, with
// ctx's error. It watches the waiter's waits and the target's record
// through the store's change feed, and looks again every pollEvery in case
// a change went unsaid. ready,
// if not nil, is called once the watch is in place.
func (h *Home) Await(ctx context.Context, a Actor, target string, ready func()) (*WaitView, error) {
	waiter := waiterOf(a)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A store that cannot watch leaves the poll to notice.
	changed, _ := h.store.Watch(wctx, waitsRel(waiter), chatRel(target))
	// What the wait will say has its secrets taken out: compile the rules
	// for it while blocking, not after the wake.
	go func() { _ = scrub.Check() }()
	if ready != nil {
		ready()
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		v, err := h.awaitCheck(a, target)
		if err != nil || v != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-changed:
		case <-tick.C:
		}
	}
}

// awaitCheck looks at the wait without the lock: ended, it is returned;
// registered, with its target stopped working unannounced, the target is
// settled under the lock and the wait looked at once more.
func (h *Home) awaitCheck(a Actor, target string) (*WaitView, error) {
	look := func() (v *WaitView, over bool, err error) {
		err = h.View(func(tx *View) error {
			me, waiter, ws, err := tx.Waits().actorWaits(a)
			if err != nil {
				return err
			}
			w := ws.Waits[target]
			if w == nil {
				return refusedf("the wait for %s was cancelled", target)
			}
			if w.Ended != nil {
				v = tx.Waits().view(me, waiter, w)
				return nil
			}
			over, err = tx.Waits().targetOver(waiter, target)
			return err
		})
		return v, over, err
	}
	v, over, err := look()
	if err != nil || v != nil || !over {
		return v, err
	}
	if err := h.Update(func(tx *Tx) error {
		_, err := tx.Waits().Settle(a)
		return err
	}); err != nil {
		return nil, err
	}
	v, _, err = look()
	return v, err
}
