package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
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
				// encoding/json names an unknown field, not the
				// entry that has it.
				if err := checkCrawlerKeys(cr, i); err != nil {
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
		return fmt.Errorf("%s: a JSON %s is not allowed; use %s", fieldOf(typeErr.Field, fields), typeErr.Value, allowedFor(typeErr))
	}
	if errors.As(err, &typeErr) || errors.As(err, &syntaxErr) {
		return err
	}
	if key, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
		// A crawler's unknown fields are reported above, with its
		// index: this one is the handler's.
		key = strings.TrimSuffix(key, `"`)
		// The Caddyfile's singular subdirectives are JSON lists with
		// plural names (bots, resolvers).
		if name, ok := jsonNames[strings.ToLower(key)+"s"]; ok {
			return fmt.Errorf("unknown field %q: the field is %q, a list", key, name)
		}
		// Giving the plural name of a crawler's field here would lead
		// to another unknown field.
		for _, k := range []string{strings.ToLower(key), strings.ToLower(key) + "s"} {
			if name, ok := crawlerJSONNames[k]; ok {
				return fmt.Errorf("unknown field %q: %q is a field of a crawlers entry, not of the handler; write it in one: \"crawlers\": [{\"token\": \"MyBot\", %q: …}]", key, name, name)
			}
		}
	}
	// An error of a field's own decoder carries no field name.
	for _, name := range durationFields {
		if raw, ok := fields[name]; ok {
			var d caddy.Duration
			if derr := d.UnmarshalJSON(raw); derr != nil {
				return fmt.Errorf("%s: %v; use %s", name, derr, durationHint(name))
			}
		}
	}
	return err
}

// checkCrawlerKeys refuses a field that a crawlers entry does not have,
// naming the entry, as the handler's own unknown fields are refused.
func checkCrawlerKeys(cr map[string]json.RawMessage, i int) error {
	for _, key := range slices.Sorted(maps.Keys(cr)) {
		if _, ok := crawlerJSONNames[strings.ToLower(key)]; ok {
			continue
		}
		// The Caddyfile's signature_agent is signature_agents here.
		if name, ok := crawlerJSONNames[strings.ToLower(key)+"s"]; ok {
			return fmt.Errorf("crawlers[%d]: unknown field %q: the field is %q, a list", i, key, name)
		}
		return fmt.Errorf("crawlers[%d]: unknown field %q; a crawlers entry has %s", i, key, crawlerFieldList)
	}
	return nil
}

// crawlerFieldList is "token, ranges, ... and category", the fields of a
// crawlers entry, for errors.
var crawlerFieldList = func() string {
	t := reflect.TypeFor[Crawler]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}()

// fieldOf names the field of a type error as the operator finds it:
// encoding/json gives a crawler's field as "crawlers.token", of no entry
// in particular, and the entry is the first that does not decode alone.
func fieldOf(field string, fields map[string]json.RawMessage) string {
	rest, ok := strings.CutPrefix(field, "crawlers.")
	if !ok {
		return field
	}
	var entries []json.RawMessage
	if json.Unmarshal(fields["crawlers"], &entries) != nil {
		return field
	}
	for i, raw := range entries {
		var cr Crawler
		if json.Unmarshal(raw, &cr) != nil {
			return fmt.Sprintf("crawlers[%d].%s", i, rest)
		}
	}
	return field
}

// allowedFor says what a field of the wrong JSON type, or a number
// out of the Go type's range, takes instead: for a duration, a string
// (a bare number counts nanoseconds, which is seldom meant); for a
// number, its range, since "use a number" to a number misleads.
func allowedFor(e *json.UnmarshalTypeError) string {
	if slices.Contains(durationFields, e.Field) {
		return durationHint(e.Field)
	}
	if r, ok := numberRanges[e.Field]; ok {
		return r
	}
	return jsonKindOf(e.Type)
}

// numberRanges are what the number fields allow, worded as Validate's
// errors word it.
var numberRanges = map[string]string{
	"status":     fmt.Sprintf("a number from %d to %d", MinStatus, MaxStatus),
	"cache":      fmt.Sprintf("a number of entries from %d to %d", MinCache, MaxCache),
	"file_cache": fmt.Sprintf("a number of files from %d to %d", MinFileCache, MaxFileCache),
}

// durationHint says what a duration field takes in JSON.
func durationHint(field string) string {
	hint := fmt.Sprintf("a duration string such as \"5s\", \"1h\" or \"24h\", %s (a JSON number counts nanoseconds)", strings.TrimPrefix(durationRange(field), "a duration "))
	if field == "grace" {
		return "0 (off) or " + hint
	}
	return hint
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
		elem := jsonKindOf(t.Elem())
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(elem, "an "), "a ") + "s"
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
