package parse

import (
	"reflect"
	"strings"
	"testing"
)

func TestPatch(t *testing.T) {
	cases := []struct {
		name, text string
		want       []PatchOp
	}{
		{"add", "*** Begin Patch\n*** Add File: /p/marker.txt\n+patched\n*** End Patch\n",
			[]PatchOp{{Kind: PatchAdd, Path: "/p/marker.txt", Content: "patched\n"}}},
		{"every kind", "*** Begin Patch\n*** Add File: a/add.sh\n+#!/bin/sh\n+echo hi\n*** Delete File: gone.txt\n" +
			"*** Update File: src/old.py\n*** Move to: src/new.py\n@@ def f():\n-    pass\n+    return 1\n*** End Patch",
			[]PatchOp{
				{Kind: PatchAdd, Path: "a/add.sh", Content: "#!/bin/sh\necho hi\n"},
				{Kind: PatchDelete, Path: "gone.txt"},
				{Kind: PatchUpdate, Path: "src/old.py", MoveTo: "src/new.py",
					Chunks: []PatchChunk{{Context: "def f():", Old: []string{"    pass"}, New: []string{"    return 1"}}}},
			}},
		{"markers padded, CRLF, heredoc-wrapped", "<<'EOF'\r\n *** Begin Patch \r\n*** Update File: x\r\n keep\r\n+add\r\n\r\n@@\r\n-drop\r\n*** End of File\r\n*** End Patch  \r\nEOF\r\n",
			[]PatchOp{{Kind: PatchUpdate, Path: "x", Chunks: []PatchChunk{
				{Old: []string{"keep", ""}, New: []string{"keep", "add", ""}}, // the blank line is context, as in Codex
				{Old: []string{"drop"}, New: nil, EOF: true}}}}},
		{"blank line inside a chunk is context", "*** Begin Patch\n*** Update File: x\n@@\n a\n\n+b\n*** End Patch",
			[]PatchOp{{Kind: PatchUpdate, Path: "x", Chunks: []PatchChunk{{Old: []string{"a", ""}, New: []string{"a", "", "b"}}}}}},
		{"an added file stops at its first line without +", "*** Begin Patch\n*** Add File: x\n+a\n*** Add File: y\n*** End Patch",
			[]PatchOp{{Kind: PatchAdd, Path: "x", Content: "a\n"}, {Kind: PatchAdd, Path: "y"}}},
		{"no operations", "*** Begin Patch\n*** End Patch", nil},
	}
	for _, c := range cases {
		got, err := Patch(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, c.want)
		}
	}
	for _, bad := range []string{
		"", "rm -rf ~", "*** Begin Patch", "*** Begin Patch\n*** Add File: x\n+y",
		"*** Begin Patch\n*** Frobnicate File: x\n*** End Patch",
		"*** Begin Patch\n*** Update File: x\n*** End Patch",                        // no changes
		"*** Begin Patch\n*** Update File: x\n@@\n*** End Patch",                    // a chunk without lines
		"*** Begin Patch\n*** Update File: x\n?what\n*** End Patch",                 // not a chunk line
		"*** Begin Patch\n*** Update File: x\n*** Move to: \n@@\n+a\n*** End Patch", // moved to nowhere
		"*** Begin Patch\n\n*** Add File: x\n+a\n*** End Patch",                     // a blank line is no header
		"*** Begin Patch\n*** Add File:\n*** End Patch",                             // no path
		"*** Begin Patch\n*** Update File: x\n@@\n+a\nbad\n*** End Patch",
	} {
		if ops, err := Patch(bad); err == nil {
			t.Errorf("%q parsed: %#v", bad, ops)
		} else if _, ok := err.(*PatchError); !ok {
			t.Errorf("%q: error %T", bad, err)
		}
	}
}

// renderPatch writes ops back as a patch, the way a model writes one.
func renderPatch(ops []PatchOp) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for _, op := range ops {
		switch op.Kind {
		case PatchAdd:
			b.WriteString(patchAddFile + op.Path + "\n")
			for _, l := range patchLines(op.Content) {
				b.WriteString("+" + l + "\n")
			}
		case PatchDelete:
			b.WriteString(patchDelFile + op.Path + "\n")
		case PatchUpdate:
			b.WriteString(patchUpdFile + op.Path + "\n")
			if op.MoveTo != "" {
				b.WriteString(patchMoveTo + op.MoveTo + "\n")
			}
			for _, c := range op.Chunks {
				if c.Context != "" {
					b.WriteString("@@ " + c.Context + "\n")
				} else {
					b.WriteString("@@\n")
				}
				for _, l := range c.Old {
					b.WriteString("-" + l + "\n")
				}
				for _, l := range c.New {
					b.WriteString("+" + l + "\n")
				}
				if c.EOF {
					b.WriteString(patchEndOfFil + "\n")
				}
			}
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// FuzzPatch: any text parses or fails with a PatchError, never panics;
// what parses names a path for every operation, and an operation list
// written back out parses to the same paths, kinds and content.
func FuzzPatch(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a.sh\n+rm -rf ~\n*** End Patch\n")
	f.Add("*** Begin Patch\n*** Update File: x\n*** Move to: y\n@@ ctx\n a\n-b\n+c\n*** End of File\n*** End Patch")
	f.Add("<<EOF\n*** Begin Patch\n*** Delete File: /etc/passwd\n*** End Patch\nEOF")
	f.Add("*** Begin Patch\r\n*** Update File: z\r\n k\r\n\r\n+v\r\n*** End Patch\r\n")
	f.Fuzz(func(t *testing.T, text string) {
		ops, err := Patch(text)
		if err != nil {
			if _, ok := err.(*PatchError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		for _, op := range ops {
			if op.Path == "" || (op.Kind == PatchUpdate && len(op.Chunks) == 0) {
				t.Fatalf("empty operation %#v from %q", op, text)
			}
		}
		again, err := Patch(renderPatch(ops))
		if err != nil {
			return // a path or line with bytes the format cannot carry back (a CR, a leading blank)
		}
		if len(again) != len(ops) {
			t.Fatalf("%d operations, rendered and parsed again %d", len(ops), len(again))
		}
		for i := range ops {
			a, b := ops[i], again[i]
			if strings.TrimSpace(a.Path) == a.Path && (a.Kind != b.Kind || a.Path != b.Path || a.MoveTo != b.MoveTo ||
				a.Kind == PatchAdd && a.Content != b.Content) {
				t.Fatalf("operation %d: %#v, again %#v", i, a, b)
			}
		}
	})
}
