package parse

import "github.com/sentinel-guard/sentinel/programs"

// SQL written, then run (issue 12 class 12): a database client reading a
// script that an earlier command of the same source wrote with known text
// (`echo 'DROP TABLE x' > x.sql && psql -f x.sql`, `mysql db < x.sql`,
// `sqlite3 db '.read x.sql'`, `\i x.sql`, `source x.sql`) gets that text as
// "stdin text of NAME" data, which the SQL rules read as they read a
// heredoc.

// dbScripts records the known text of the scripts a database client (or
// a raw sender, nc cache 6379 < c.txt) reads: its stdin file and the
// model's Inputs (psql -f F, sqlite3 '.read F').
func (w *walker) dbScripts(c *cmd, name string) {
	if len(w.written) == 0 {
		return
	}
	p := programs.Lookup(name)
	args := words(c.argv[1:])
	if !p.Is(programs.Database) && !programs.SendsStdin(name, args) {
		return
	}
	var files []arg
	if c.stdin != nil && c.stdin.file {
		files = append(files, c.stdin.path)
	}
	if p != nil && p.Inputs != nil {
		for _, f := range p.Inputs(args) {
			files = append(files, arg{Word: Word{Value: f, Static: true}})
		}
	}
	for _, f := range files {
		if text, _, ok := w.writtenText(c, f); ok && text != "" {
			w.addData(text, "stdin text of "+name)
		}
	}
}
