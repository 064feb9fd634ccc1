package parse

import (
	"strings"
	"testing"
	"time"
)

// TestAdversarialNesting feeds maximum-size inputs built to make the
// parser or the walk recurse as deep as possible. Each must end in a
// result or an error: a Go stack overflow would kill the test binary.
func TestAdversarialNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("1 MiB inputs")
	}
	n := DefaultMaxBytes / 4
	rep := func(open, mid, close string) string {
		k := (DefaultMaxBytes - len(mid)) / (len(open) + len(close))
		return strings.Repeat(open, k) + mid + strings.Repeat(close, k)
	}
	inputs := map[string]string{
		"dq-subst":      rep(`"$(`, "a", `)"`),
		"param":         rep("${a:-", "b", "}"),
		"not-test":      "[[ " + strings.Repeat("! ", n) + "a ]]",
		"arith-not":     "(( " + strings.Repeat("!", DefaultMaxBytes-10) + "1 ))",
		"arith-neg":     "echo $(( " + strings.Repeat("-(", n/2) + "1" + strings.Repeat(")", n/2) + " ))",
		"arith-assign":  "(( " + strings.Repeat("a=", n) + "1 ))",
		"arith-tern":    "(( " + strings.Repeat("a?", n) + "1 ))",
		"arith-tilde":   "echo $[ " + strings.Repeat("~", 2*n) + "1 ]",
		"arith-minus":   "echo $(( " + strings.Repeat("- ", n) + "1 ))",
		"array":         "a=" + rep("(", "1", ")"),
		"procsubst":     rep("<(", "a", ")"),
		"braces":        rep("{ ", "a;", " }"),
		"funcs":         strings.Repeat("f() ", n) + "a",
		"case":          rep("case a in b) ", "c", ";; esac"),
		"backticks":     "echo " + strings.Repeat("`", n),
		"shift-hdoc":    "(( 1 << X ))\n" + rep("$(", "a", ")"),
		"heredoc-subst": "cat <<EOF\n" + rep("$(", "a", ")") + "\nEOF",
		"while":         rep("while a; do ", "b", "; done"),
		"and-chain":     strings.Repeat("a && ", n/2) + "a",
		"eval-chain":    rep("eval '", "a", "'"),
	}
	for name, src := range inputs {
		if len(src) > DefaultMaxBytes {
			src = src[:DefaultMaxBytes]
		}
		start := time.Now()
		r, err := Parse(src, Options{})
		if err == nil && r == nil {
			t.Errorf("%s: nil result without error", name)
		}
		t.Logf("%s: %v in %v", name, err, time.Since(start).Round(time.Millisecond))
	}
}
