package toolcall

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPayload is the per-call input work before the judge: decoding
// the payload with exact keys and checking that tool_input is faithful.
// The payloads are the hook benchmark's (testdata/payloads), in turn.
func BenchmarkPayload(b *testing.B) {
	files, _ := filepath.Glob("../testdata/payloads/*.json")
	var data [][]byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	if len(data) == 0 {
		b.Fatal("no payloads")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := ParsePayload(data[i%len(data)])
		if err == nil && !p.IsPost() {
			_ = p.unfaithful()
		}
	}
}

// FuzzMembers holds the one-pass scanner to encoding/json's decoder: on
// every input json.Valid accepts, both split the same members or refuse
// with the same duplicate or case error.
//
//	go test ./toolcall/ -run '^$' -fuzz FuzzMembers -fuzztime 30s
func FuzzMembers(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/payloads/*.json")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{`{}`, ` { "a" : [1, {"b":"}"}] , "c":"\"\\" } `, `{"a":1,"A":2}`, `{"a":1,"\u0061":2}`,
		`{"x":true,"y":null,"z":-1.5e3,"w":"\u0000\r"}`, `[1]`, `"s"`, `{"k":{"a":[[]]},"l":"]"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		got, gerr := scanMembers(data, "x")
		want, werr := decodeMembers(data, "x")
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%q: scan %v, decoder %v", data, gerr, werr)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: scan %d members, decoder %d", data, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("%q: member %q: scan %q, decoder %q", data, k, got[k], v)
			}
		}
	})
}

// Unfaithful without ParsePayload (sentinel check) sees raw bytes that are
// not UTF-8 as the decoder does: as U+FFFD, unjudged.
func TestUnfaithfulRawBytes(t *testing.T) {
	if why := Unfaithful("Bash", []byte("{\"command\":\"rm -rf \xff\"}")); why == "" {
		t.Error("a command with a byte that is not UTF-8 is faithful")
	}
	if why := Unfaithful("Bash", []byte(`{"command":"git reset --hard\u0000origin/main"}`)); why == "" {
		t.Error("a command with an escaped NUL is faithful")
	}
	if why := Unfaithful("Bash", []byte(`{"command":"echo caf\u00e9 && ls"}`)); why != "" {
		t.Errorf("an escaped é: %s", why)
	}
}
