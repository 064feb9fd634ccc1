package main

import (
	"context"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// schemaFindings fails a local register's verification when its schema is
// not the one sentinel's migrations create (issue 21): an allowed
// one-liner that drops the session memory's index, or adds a trigger that
// blanks facts, leaves the chain intact but switches memory off. The hook
// answers such a memory "unavailable"; verify and doctor name the edit.
func schemaFindings(rep *seal.Report, reg *register.Register, _ *bundle.Bundle) {
	if reg == nil {
		return
	}
	p, err := reg.SchemaProblem(context.Background())
	if err != nil {
		p = "the register's schema could not be read: " + err.Error()
	}
	if p == "" {
		return
	}
	rep.Findings = append(rep.Findings, seal.Finding{Kind: "schema", Message: p + "; the session memory is unavailable until it is repaired"})
	if rep.OK {
		rep.OK, rep.Failure = false, p
	}
}
