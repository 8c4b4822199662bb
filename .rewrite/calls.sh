#!/bin/sh
# Re-applies issue 26 item 3's call-site rewrite (state's *Tx/*View methods
# moved to the domain types of state/domains.go) to any tree: run it from
# the module's root, after a merge, on the packages that still call the old
# names (./... when none given). It works from types (go/types over the
# export data go list builds), so only calls on a state.Tx or state.View
# are touched, and running it twice changes nothing the second time.
#   sh .rewrite/calls.sh            # whole module
#   sh .rewrite/calls.sh ./cli      # one package
set -e
root=$(git rev-parse --show-toplevel)
src=$(cd "$(dirname "$0")" && pwd)
[ -f "$src/main.go" ] || src=$src/domain-rewrite # the copy in /work/notes
(cd "$src" && go build -o /tmp/conch-rewrite .)
cd "$root"
CONCH_REWRITE_TABLE=$src/table.txt /tmp/conch-rewrite "$@"
gofmt -l . | grep -v '^\.rewrite/' || true
