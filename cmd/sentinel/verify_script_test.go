package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// Script commands for the attacker's edits in the verify scenarios:
//
//	sqlexec DB SQL          runs SQL on the SQLite file DB (delete seal rows,
//	                        rewrite entries): what an agent with a shell can do.
//	jsonset FILE PATH JSON  sets PATH (dot separated keys and indices, as
//	                        jsonpath) in the JSON file FILE to the JSON value.
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
	if err := json.Unmarshal([]byte(args[2]), &val); err != nil {
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
