package parse

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds the words one brace expansion may produce. Past it
// the word stays unknown (not static), as it was before expansion was
// modelled: {1..100000} is no way to spell a path.
const maxBraceWords = 256

// braceWords expands the brace expansions of an argv word ({a,b},
// {1..3}, a{b,c}d, nested) into the words the shell would produce, in
// order, as words without braces; nil when wd has none or too many.
// Bash expands braces before anything else, so rm -rf {~,} is rm -rf ~ and
// git {reset,} --hard is git reset --hard plus git --hard.
func braceWords(wd *syntax.Word) []*syntax.Word {
	if !slices.ContainsFunc(wd.Parts, func(p syntax.WordPart) bool {
		l, ok := p.(*syntax.Lit)
		return ok && strings.Contains(l.Value, "{")
	}) {
		return nil
	}
	cp := *wd
	cp.Parts = slices.Clone(wd.Parts)
	if !syntax.SplitBraces(&cp) {
		return nil
	}
	alts, ok := braceParts(cp.Parts)
	if !ok {
		return nil
	}
	out := make([]*syntax.Word, 0, len(alts))
	for _, parts := range alts {
		parts = mergeLits(parts)
		if len(parts) == 0 {
			continue // an empty alternative is no word at all: {~,} is ~
		}
		out = append(out, &syntax.Word{Parts: parts})
	}
	return out
}

// braceParts expands a list of word parts into every alternative.
func braceParts(parts []syntax.WordPart) ([][]syntax.WordPart, bool) {
	acc := [][]syntax.WordPart{nil}
	for _, p := range parts {
		be, ok := p.(*syntax.BraceExp)
		if !ok {
			for i := range acc {
				acc[i] = append(acc[i], p)
			}
			continue
		}
		var choices [][]syntax.WordPart
		if be.Sequence {
			seq, ok := braceSeq(be)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				choices = append(choices, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, el := range be.Elems {
				sub, ok := braceParts(el.Parts)
				if !ok {
					return nil, false
				}
				choices = append(choices, sub...)
			}
		}
		if len(acc)*len(choices) > maxBraceWords {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(acc)*len(choices))
		for _, a := range acc {
			for _, c := range choices {
				next = append(next, append(slices.Clip(a), c...))
			}
		}
		acc = next
	}
	return acc, true
}

// braceSeq expands {x..y[..incr]} of integers or single letters.
func braceSeq(be *syntax.BraceExp) ([]string, bool) {
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := 1
	if len(be.Elems) == 3 {
		n, err := strconv.Atoi(be.Elems[2].Lit())
		if err != nil {
			return nil, false
		}
		step = max(n, -n, 1)
	}
	var out []string
	a, errA := strconv.Atoi(from)
	b, errB := strconv.Atoi(to)
	chars := errA != nil || errB != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, b = int(from[0]), int(to[0])
	}
	if (b-a)/step+1 > maxBraceWords && (a-b)/step+1 > maxBraceWords {
		return nil, false
	}
	for i := a; ; {
		if chars {
			out = append(out, string(rune(i)))
		} else {
			out = append(out, strconv.Itoa(i))
		}
		if len(out) > maxBraceWords {
			return nil, false
		}
		if i == b || (a < b && i+step > b) || (a > b && i-step < b) {
			break
		}
		if a < b {
			i += step
		} else {
			i -= step
		}
	}
	return out, true
}

// mergeLits joins adjacent literal parts, so that a leading ~ of an
// alternative is one literal, as the shell sees it for tilde expansion.
func mergeLits(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && l.Value == "" {
			continue
		}
		if l, ok := p.(*syntax.Lit); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*syntax.Lit); ok {
				out[len(out)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: l.ValueEnd, Value: prev.Value + l.Value}
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
