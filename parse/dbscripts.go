package parse

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// SQL written, then run (issue 12 class 12): a database client reading a
// script that an earlier command of the same source wrote with known text
// (`echo 'DROP TABLE x' > x.sql && psql -f x.sql`, `mysql db < x.sql`,
// `sqlite3 db '.read x.sql'`, `\i x.sql`, `source x.sql`) gets that text as
// "stdin text of NAME" data, which the SQL rules read as they read a
// heredoc.

// dbScripts records the known text of the scripts a database client reads.
func (w *walker) dbScripts(c *cmd, name string) {
	if len(w.written) == 0 || !programs.Is(name, programs.Database) {
		return
	}
	var files []arg
	if c.stdin != nil && c.stdin.file {
		files = append(files, c.stdin.path)
	}
	args := c.argv[1:]
	for i, a := range args {
		v := a.Value
		switch {
		case !a.Static:
		case (v == "-f" || v == "--file") && i+1 < len(args):
			files = append(files, args[i+1])
		case strings.HasPrefix(v, "--file="):
			files = append(files, arg{Word: Word{Value: v[len("--file="):], Static: true}})
		default:
			// .read F (sqlite3), \i F / \include F (psql), source F (mysql)
			for _, cmd := range strings.Split(v, ";") {
				f := strings.Fields(cmd)
				if len(f) == 2 && (f[0] == ".read" || f[0] == `\i` || f[0] == `\include` || f[0] == `\ir` || strings.EqualFold(f[0], "source")) {
					files = append(files, arg{Word: Word{Value: f[1], Static: true}})
				}
			}
		}
	}
	for _, f := range files {
		if text, _, ok := w.writtenText(c, f); ok && text != "" {
			w.addData(text, "stdin text of "+name)
		}
	}
}
