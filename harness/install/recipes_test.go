package install

import (
	"slices"
	"testing"

	"github.com/conch-sh/conch/harness"
)

// TestEveryAdapterInstalls: conch install NAME exists for every harness
// conch has an adapter for, and for no other, and its handlers run that
// adapter's conch hook NAME.
func TestEveryAdapterInstalls(t *testing.T) {
	var recipes []string
	for _, rc := range Recipes {
		recipes = append(recipes, rc.Name)
	}
	adapters := harness.Names()
	slices.Sort(recipes)
	slices.Sort(adapters)
	if !slices.Equal(recipes, adapters) {
		t.Errorf("install recipes %q, adapters %q: want one recipe per adapter", recipes, adapters)
	}
}
