package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// lineType reads the top-level "type" of a JSON line without decoding it
// all, so lines a translator ignores cost almost nothing. It returns "" when
// the line does not start like a JSON object with a leading "type" key; the
// caller then decodes fully.
func lineType(line []byte) string {
	const key = `{"type":"`
	if !bytes.HasPrefix(line, []byte(key)) {
		return ""
	}
	rest := line[len(key):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return ""
	}
	return string(rest[:end])
}

// decode unmarshals a provider line, wrapping failures in ErrMalformed.
func decode(line []byte, v any) error {
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// blocksText flattens a content value that is a string or an array of
// {type:"text",text} blocks (Claude tool results, Copilot results, ACP).
func blocksText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var b strings.Builder
		for _, bl := range blocks {
			if bl.Text == "" {
				if bl.Type != "" && bl.Type != "text" {
					fmt.Fprintf(&b, "[%s]", bl.Type)
				}
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(bl.Text)
		}
		return b.String()
	}
	return string(raw)
}

// fastDecoder is a line struct with a hand-written decoder (see
// internal/jsonfast) that fills it as json.Unmarshal would or reports false.
type fastDecoder[T any] interface {
	*T
	fastDecode(line []byte) bool
}

// decodeFast decodes line into the zero struct *v: by its fast decoder
// when that can, else (the partial result reset) by json.Unmarshal, so
// the result and the errors are exactly json.Unmarshal's.
func decodeFast[T any, P fastDecoder[T]](line []byte, v P) error {
	if v.fastDecode(line) {
		return nil
	}
	var zero T
	*v = zero
	return decode(line, v)
}

// jsonNames lists the JSON names encoding/json gives the fields of v's
// struct type (v may be a nil pointer to it): the tag's name, else the Go
// name; "-" fields have none. The fast decoders read these lists, made
// from the tags once at start, to know which keys they must not ignore, so
// a field added to a struct is never dropped by a fast path that does not
// know it yet: its key sends the line to encoding/json.
func jsonNames(v any) []string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
