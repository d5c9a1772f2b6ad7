package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/caddyserver/caddy/v2"
)

// UnmarshalJSON decodes the handler's JSON as Caddy does (an unknown field
// is an error), and says more than encoding/json would: a field written
// in other letter case than its name ("MODE") is an error rather than
// taken, and a duration that does not parse is named ("grace: time:
// invalid duration \"off\"", where Caddy would give only the second part).
func (c *Config) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err == nil {
		for key := range fields {
			if name, ok := jsonNames[strings.ToLower(key)]; ok && name != key {
				return fmt.Errorf("unknown field %q: the field is %q (names are case-sensitive)", key, name)
			}
		}
		// Caddy's own keys: the module's name, and an object's ID.
		// Caddy takes them out before a module decodes; a handler read
		// from a config by other means (caddy robots check) has them.
		if _, h := fields["handler"]; h || fields["@id"] != nil {
			delete(fields, "handler")
			delete(fields, "@id")
			if b, err = json.Marshal(fields); err != nil {
				return err
			}
		}
	}
	// Named for the messages of encoding/json ("Go struct field
	// robotsTxt.status of type int").
	type robotsTxt Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode((*robotsTxt)(c))
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	if errors.As(err, &typeErr) || errors.As(err, &syntaxErr) {
		return err
	}
	// An error of a field's own decoder carries no field name.
	for _, name := range durationFields {
		if raw, ok := fields[name]; ok {
			var d caddy.Duration
			if derr := d.UnmarshalJSON(raw); derr != nil {
				return fmt.Errorf("%s: %v; use a duration such as \"5s\", \"1h\" or \"24h\"", name, derr)
			}
		}
	}
	return err
}

// durationFields are the JSON names of Config's durations.
var durationFields = []string{"reload", "grace", "trap_ttl", "share_interval"}

// jsonNames maps the lower-cased JSON name of each Config field to the
// name itself.
var jsonNames = func() map[string]string {
	m := map[string]string{}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[strings.ToLower(name)] = name
		}
	}
	return m
}()
