package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/yume-cli/yume-cli/internal/jsonfast"
)

// v1Hint is the whole answer to an asciicast v1 file: asciinema 3 converts it.
const v1Hint = "asciicast v1 is not supported; convert it to v2 with asciinema 3: " +
	"`asciinema convert -f asciicast-v2 IN.json OUT.cast`"

// Header fields each version defines; everything else goes to Header.Extra.
var (
	v2Fields = []string{"version", "width", "height", "timestamp", "idle_time_limit", "command", "title", "env"}
	v3Fields = []string{"version", "term", "timestamp", "idle_time_limit", "command", "title", "env"}
)

// parseHeader reads the first line. Its errors are messages for line 1.
func parseHeader(line []byte) (Header, error) {
	var h Header
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		var arr []json.RawMessage
		if json.Unmarshal(line, &arr) == nil {
			return h, fmt.Errorf("the first line is a JSON array (an event?), not the header object; the header line is missing")
		}
		return h, fmt.Errorf("the header is not a JSON object (%v); is this an asciicast file?", err)
	}
	rawVersion, ok := fields["version"]
	if !ok {
		return h, fmt.Errorf(`the header has no "version" field; is this an asciicast file?`)
	}
	if err := json.Unmarshal(rawVersion, &h.Version); err != nil {
		return h, fmt.Errorf(`header "version" must be an integer, got %s`, rawVersion)
	}
	var known []string
	var err error
	switch h.Version {
	case 1:
		return h, errors.New(v1Hint)
	case 2:
		known = v2Fields
		err = h.parseV2Size(fields)
	case 3:
		known = v3Fields
		err = h.parseV3Term(fields)
	default:
		return h, fmt.Errorf("asciicast version %d is not supported (this reads versions 2 and 3)", h.Version)
	}
	if err == nil {
		err = h.parseCommon(fields)
	}
	if err != nil {
		return h, err
	}
	if h.TermType == "" {
		h.TermType = h.Env["TERM"]
	}
	for k, v := range fields {
		if !slices.Contains(known, k) {
			h.setExtra(k, v)
		}
	}
	return h, nil
}

// parseV2Size reads v2's top-level "width" and "height".
func (h *Header) parseV2Size(fields map[string]json.RawMessage) error {
	if err := positiveInt(fields, "width", &h.Width); err != nil {
		return err
	}
	return positiveInt(fields, "height", &h.Height)
}

// parseV3Term reads v3's "term" object: cols, rows, type and theme.
func (h *Header) parseV3Term(fields map[string]json.RawMessage) error {
	var term map[string]json.RawMessage
	if err := json.Unmarshal(fields["term"], &term); err != nil || term == nil {
		return fmt.Errorf(`asciicast v3 header needs a "term" object with "cols" and "rows"`)
	}
	if err := positiveInt(term, "cols", &h.Width); err != nil {
		return err
	}
	if err := positiveInt(term, "rows", &h.Height); err != nil {
		return err
	}
	if err := optionalString(term, "type", &h.TermType); err != nil {
		return err
	}
	if theme, ok := term["theme"]; ok && string(theme) != "null" {
		h.setExtra("theme", theme)
	}
	return nil
}

// parseCommon reads the fields v2 and v3 share.
func (h *Header) parseCommon(fields map[string]json.RawMessage) error {
	if raw, ok := fields["timestamp"]; ok && string(raw) != "null" {
		// asciinema 2 (Python) accepts a float timestamp; keep the seconds.
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.Abs(f) > 1<<53 {
			return fmt.Errorf(`header "timestamp" must be a number of Unix seconds, got %s`, raw)
		}
		h.Timestamp = int64(f)
	}
	if raw, ok := fields["idle_time_limit"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &h.IdleTimeLimit); err != nil {
			return fmt.Errorf(`header "idle_time_limit" must be a number of seconds, got %s`, raw)
		}
	}
	if err := optionalString(fields, "title", &h.Title); err != nil {
		return err
	}
	if err := optionalString(fields, "command", &h.Command); err != nil {
		return err
	}
	if raw, ok := fields["env"]; ok && string(raw) != "null" {
		// asciinema 2 writes null for an unset variable (tests/casts/nulls-v2.cast).
		var env map[string]*string
		if err := json.Unmarshal(raw, &env); err != nil {
			return fmt.Errorf(`header "env" must be an object of strings, got %s`, raw)
		}
		for k, v := range env {
			if v == nil {
				continue
			}
			if h.Env == nil {
				h.Env = make(map[string]string, len(env))
			}
			h.Env[k] = *v
		}
	}
	return nil
}

// setExtra stores an unmodelled field, compacted so equal JSON compares equal.
func (h *Header) setExtra(key string, raw json.RawMessage) {
	if _, taken := h.Extra[key]; taken {
		return
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return // Cannot happen: raw came out of a successful Unmarshal.
	}
	if h.Extra == nil {
		h.Extra = make(map[string]json.RawMessage)
	}
	h.Extra[key] = buf.Bytes()
}

// positiveInt reads a required integer field that must be above zero.
func positiveInt(fields map[string]json.RawMessage, key string, dst *int) error {
	raw, ok := fields[key]
	if !ok {
		return fmt.Errorf("the header has no %q field (the window size is required)", key)
	}
	if err := json.Unmarshal(raw, dst); err != nil || *dst <= 0 {
		return fmt.Errorf("header %q must be a positive integer, got %s", key, raw)
	}
	return nil
}

// optionalString reads a string field that may be absent or null.
func optionalString(fields map[string]json.RawMessage, key string, dst *string) error {
	raw, ok := fields[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("header %q must be a string, got %s", key, raw)
	}
	return nil
}

// appendHeader appends h as a v2 header line (with its newline), fields in
// asciinema's order, then Extra sorted by key.
func appendHeader(b []byte, h Header) ([]byte, error) {
	env := h.Env
	if h.TermType != "" && env["TERM"] == "" {
		env = maps.Clone(env)
		if env == nil {
			env = make(map[string]string, 1)
		}
		env["TERM"] = h.TermType // v2 keeps the terminal type only here.
	}
	b = fmt.Appendf(b, `{"version": 2, "width": %d, "height": %d`, h.Width, h.Height)
	if h.Timestamp != 0 {
		b = fmt.Appendf(b, `, "timestamp": %d`, h.Timestamp)
	}
	if h.IdleTimeLimit != 0 {
		b = append(b, `, "idle_time_limit": `...)
		b = strconv.AppendFloat(b, h.IdleTimeLimit, 'f', -1, 64)
	}
	if h.Command != "" {
		b = appendField(b, "command", validString(h.Command))
	}
	if h.Title != "" {
		b = appendField(b, "title", validString(h.Title))
	}
	if len(env) > 0 {
		b = append(b, `, "env": {`...)
		for i, k := range slices.Sorted(maps.Keys(env)) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = jsonfast.AppendString(b, validString(k))
			b = jsonfast.AppendString(append(b, ": "...), validString(env[k]))
		}
		b = append(b, '}')
	}
	for _, k := range slices.Sorted(maps.Keys(h.Extra)) {
		if slices.Contains(v2Fields, k) {
			continue // A modelled field wins over a stale copy in Extra.
		}
		// Compact: a value spread over lines would break the line format.
		var v bytes.Buffer
		if err := json.Compact(&v, h.Extra[k]); err != nil {
			return nil, fmt.Errorf("header extra field %q is not valid JSON (%v): %q", k, err, h.Extra[k])
		}
		b = jsonfast.AppendString(append(b, ", "...), k)
		b = append(append(b, ": "...), v.Bytes()...)
	}
	return append(b, "}\n"...), nil
}

// appendField appends `, "key": "value"`.
func appendField(b []byte, key, value string) []byte {
	b = append(b, ", "...)
	b = jsonfast.AppendString(b, key)
	b = append(b, ": "...)
	return jsonfast.AppendString(b, value)
}
