package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands for the attacker's edits in the verify scenarios:
//
//	sqlexec DB SQL          runs SQL on the SQLite file DB (delete seal rows,
//	                        rewrite entries): what an agent with a shell can do.
//	jsonset FILE PATH JSON  sets PATH (dot separated keys and indices, as
//	                        jsonpath) in the JSON file FILE to the JSON value
//	                        (@OTHER:PATH: the value at PATH in the file OTHER).
func cmdSQLExec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sqlexec DB SQL")
	}
	db, err := sql.Open("sqlite3", ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("sqlexec: %v", err)
	}
	defer db.Close()
	if _, err := db.Exec(args[1]); err != nil {
		ts.Fatalf("sqlexec: %v", err)
	}
}

func cmdJSONSet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonset FILE PATH JSON")
	}
	path := ts.MkAbs(args[0])
	var doc, val any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("jsonset: %s: %v", args[0], err)
	}
	raw := args[2]
	if from, ok := strings.CutPrefix(raw, "@"); ok {
		// @FILE:PATH copies a value from another JSON file (a real seal
		// pasted into an invented bundle).
		file, p, _ := strings.Cut(from, ":")
		var src any
		if err := json.Unmarshal([]byte(ts.ReadFile(file)), &src); err != nil {
			ts.Fatalf("jsonset: %s: %v", file, err)
		}
		got, ok := lookupJSON(src, p)
		if !ok {
			ts.Fatalf("jsonset: %s has no %s", file, p)
		}
		raw = got
		if !json.Valid([]byte(raw)) { // lookupJSON renders a string bare
			b, _ := json.Marshal(got)
			raw = string(b)
		}
	}
	if err := json.Unmarshal([]byte(raw), &val); err != nil {
		ts.Fatalf("jsonset: value: %v", err)
	}
	keys := strings.Split(args[1], ".")
	cur := doc
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[k] = val
			} else {
				cur = c[k]
			}
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(c) {
				ts.Fatalf("jsonset: %s: no index %s", args[1], k)
			}
			if last {
				c[n] = val
			} else {
				cur = c[n]
			}
		default:
			ts.Fatalf("jsonset: %s: %s is not an object or array", args[1], k)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		ts.Fatalf("jsonset: %v", err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		ts.Fatalf("jsonset: %v", err)
	}
}

// cmdCapture implements `capture NAME FILE REGEXP`: sets $NAME to the first
// match of REGEXP in FILE (stdout or stderr: the last command's), so a
// script can pass on what a command printed (a fingerprint, a UUID) as a
// stranger copies it. With a group, the group's match.
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: capture NAME FILE REGEXP")
	}
	re, err := regexp.Compile(args[2])
	if err != nil {
		ts.Fatalf("capture: %v", err)
	}
	m := re.FindStringSubmatch(ts.ReadFile(args[1]))
	if m == nil {
		ts.Fatalf("capture: no match for %q in %s", args[2], args[1])
	}
	ts.Setenv(args[0], m[len(m)-1])
}
