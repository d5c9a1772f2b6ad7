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
		if err := checkCase(fields, jsonNames, ""); err != nil {
			return err
		}
		// encoding/json takes a crawler's fields in any case too.
		var crawlers []map[string]json.RawMessage
		if json.Unmarshal(fields["crawlers"], &crawlers) == nil {
			for i, cr := range crawlers {
				if err := checkCase(cr, crawlerJSONNames, fmt.Sprintf("crawlers[%d]: ", i)); err != nil {
					return err
				}
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
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return fmt.Errorf("%s: a JSON %s is not allowed; use %s", typeErr.Field, typeErr.Value, jsonKindOf(typeErr.Type))
	}
	if errors.As(err, &typeErr) || errors.As(err, &syntaxErr) {
		return err
	}
	if key, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
		// The Caddyfile's singular subdirectives are JSON lists with
		// plural names (signature_agent, signature_agents).
		key = strings.TrimSuffix(key, `"`)
		for _, names := range []map[string]string{jsonNames, crawlerJSONNames} {
			if name, ok := names[strings.ToLower(key)+"s"]; ok {
				return fmt.Errorf("unknown field %q: the field is %q, a list", key, name)
			}
		}
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

// jsonKindOf says what a JSON value of Go type t is written as, for an
// error about a value of another kind.
func jsonKindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKindOf(t.Elem())
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(jsonKindOf(t.Elem()), "a ") + "s"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

// durationFields are the JSON names of Config's durations.
var durationFields = []string{"reload", "grace", "trap_ttl", "share_interval"}

// checkCase refuses a key of fields that is one of names (lower-cased
// name to name) in other letter case, which encoding/json would take.
func checkCase(fields map[string]json.RawMessage, names map[string]string, where string) error {
	for key := range fields {
		if name, ok := names[strings.ToLower(key)]; ok && name != key {
			return fmt.Errorf("%sunknown field %q: the field is %q (names are case-sensitive)", where, key, name)
		}
	}
	return nil
}

// jsonNames and crawlerJSONNames map the lower-cased JSON name of each
// field of Config and Crawler to the name itself.
var (
	jsonNames        = jsonNamesOf(reflect.TypeFor[Config]())
	crawlerJSONNames = jsonNamesOf(reflect.TypeFor[Crawler]())
)

func jsonNamesOf(t reflect.Type) map[string]string {
	m := map[string]string{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[strings.ToLower(name)] = name
		}
	}
	return m
}
