// Command corpus-report runs the labelled corpus (testdata/corpus) through
// the decision and prints recall and false flags per class as a Markdown
// table, then the mismatches and known gaps. Exit 1 when a case that is not
// a known gap fails.
//
//	go run ./cmd/corpus-report [-dir testdata/corpus] [-v]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/judge/corpus"
)

func main() {
	dir := flag.String("dir", "testdata/corpus", "corpus directory")
	verbose := flag.Bool("v", false, "list every case")
	flag.Parse()
	corpus.SetProcessEnv(func(k, v string) { os.Setenv(k, v) })
	cs, err := corpus.Load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus-report:", err)
		os.Exit(4)
	}
	rs := corpus.Run(cs)
	s := corpus.Summarise(rs)
	fmt.Printf("Corpus: %d cases (catalog %s, %s)\n\n", len(cs), judge.CatalogVersion, judge.CatalogHash()[:12])
	s.Markdown(os.Stdout)
	if *verbose {
		fmt.Println()
		for _, r := range rs {
			fmt.Println(corpus.Describe(r))
		}
	}
	if len(s.Gaps) > 0 {
		fmt.Printf("\nKnown gaps (%d):\n", len(s.Gaps))
		for _, g := range s.Gaps {
			fmt.Printf("- %s\n  reason: %s\n", corpus.Describe(g), g.KnownGap)
		}
	}
	if len(s.Failures) > 0 {
		fmt.Printf("\nMismatches (%d):\n", len(s.Failures))
		for _, f := range s.Failures {
			fmt.Println("-", corpus.Describe(f))
		}
		os.Exit(1)
	}
}
