package census

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of stops.json.
//
//go:embed schema/stops.schema.json
var SchemaJSON []byte

// SchemaURL is the schema's $id, which stops.json names in its "$schema".
const SchemaURL = "https://github.com/sentinel-guard/sentinel/census/schema/stops.schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(SchemaURL)
})

// Validate checks a stops.json document against the schema.
func Validate(data []byte) error {
	sch, err := compiled()
	if err != nil {
		return fmt.Errorf("census schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("stops.json is not JSON: %w", err)
	}
	if err := sch.Validate(doc); err != nil {
		return fmt.Errorf("stops.json does not follow its schema: %w", err)
	}
	return nil
}
