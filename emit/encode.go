package emit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// marshal encodes v as one JSON line without HTML escaping ("<" stays "<",
// as Claude prints it). The result ends in a newline.
func marshal(v any) ([]byte, error) { return appendLine(nil, v) }

// appendLine appends the line marshal returns to dst. The hot shapes encode
// themselves (append.go); the rest, and any of those whose encoding fails,
// go through encoding/json, whose error then says what went wrong.
func appendLine(dst []byte, v any) ([]byte, error) {
	if a, ok := v.(appender); ok {
		if out, err := a.appendJSON(dst); err == nil {
			return append(out, '\n'), nil
		}
	}
	b, err := reflectMarshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// reflectMarshal is marshal done by encoding/json.
func reflectMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeLine encodes v as one line that is valid UTF-8 and strictly shorter
// than MaxLine, newline included. Callers shape
// the big strings they know about (text is split, tool output capped)
// before calling; this is the safety net for everything else, such as a
// giant command in a tool_use input: the longest strings are cut (with a
// note) until the line fits.
func encodeLine(v any) ([]byte, error) { return encodeLineInto(nil, v) }

// encodeLineInto is encodeLine building the line in scratch's storage (a
// buffer the caller reuses for every line), so the line is valid until the
// next call with the same scratch.
func encodeLineInto(scratch []byte, v any) ([]byte, error) {
	line, err := appendLine(scratch[:0], v)
	if err != nil {
		return nil, err
	}
	// encoding/json replaces invalid UTF-8 in strings it encodes, but a
	// json.RawMessage or a MarshalJSON method can smuggle some through.
	if len(line) < MaxLine && utf8.Valid(line) {
		return line, nil
	}
	root, err := decodeOrdered(line)
	if err != nil {
		return nil, err
	}
	return shrink(root)
}

// maxShrinkRounds bounds shrink; a round cuts a long string to a note or
// drops a container, so real input converges in a few rounds.
const maxShrinkRounds = 200

// errTooBig is returned when even shrinking cannot fit a line; it means an
// event has more structure than fits in MaxLine, never happens for the
// shapes Writer builds, and is reported rather than emitting a broken line.
var errTooBig = errors.New("event does not fit in one line even after truncating its strings")

// shrink cuts the longest strings until the encoded value fits. When the
// size is spread over many small values instead (or cutting strings does
// not converge quickly), it replaces the smallest object or array that
// holds more than the excess with a note of the same kind: an object stays
// an object, so readers of input.command still find an object.
func shrink(root *value) ([]byte, error) {
	const noteRoom = len(truncNote) + 20
	for round := range maxShrinkRounds {
		line, err := marshal(root)
		if err != nil {
			return nil, err
		}
		if len(line) < MaxLine {
			return line, nil
		}
		excess := len(line) - 1 - maxJSON
		str := longestString(root)
		box, size := boxToDrop(root, excess)
		switch {
		case str != nil && len(str.s) > 2*noteRoom && (round < stringRounds || box == nil):
			// Cutting k raw bytes removes at least k encoded bytes.
			str.s = capWith(str.s, max(len(str.s)-excess-noteRoom, 0), truncNote)
		case box != nil:
			note := value{kind: kindString, s: fmt.Sprintf("[yume-cli: %d bytes omitted]", size)}
			if box.kind == kindObject {
				*box = value{kind: kindObject, items: []member{{key: "yume_cli_omitted", val: note}}}
			} else {
				*box = value{kind: kindArray, items: []member{{val: note}}}
			}
		default:
			return nil, errTooBig
		}
	}
	return nil, errTooBig
}

// stringRounds is how many rounds shrink spends cutting strings before it
// also drops whole containers.
const stringRounds = 16

// longestString returns the longest string value in v, or nil.
func longestString(v *value) *value {
	switch v.kind {
	case kindString:
		return v
	case kindRaw:
		return nil
	}
	var best *value
	for i := range v.items {
		if s := longestString(&v.items[i].val); s != nil && (best == nil || len(s.s) > len(best.s)) {
			best = s
		}
	}
	return best
}

// boxToDrop walks from the top-level object down through the largest
// child while that child alone is bigger than excess, and returns the
// container where it stops (never the top level) with its size.
func boxToDrop(root *value, excess int) (*value, int) {
	var box *value
	size := 0
	for v := root; ; {
		var next *value
		nextSize := 0
		for i := range v.items {
			c := &v.items[i].val
			if c.kind != kindObject && c.kind != kindArray {
				continue
			}
			if n := encodedSize(c); n > nextSize {
				next, nextSize = c, n
			}
		}
		if next == nil || nextSize <= excess {
			return box, size
		}
		box, size, v = next, nextSize, next
	}
}

// encodedSize is the encoded length of v.
func encodedSize(v *value) int {
	b, err := v.MarshalJSON()
	if err != nil {
		return 0
	}
	return len(b)
}

// value is a decoded JSON value that keeps object keys in their original
// order, so a shrunk line keeps the field order of the event it came from.
type value struct {
	kind  valueKind
	s     string          // kindString
	raw   json.RawMessage // kindRaw: number, true, false, null
	items []member        // kindObject (keyed) and kindArray
}

type valueKind int

const (
	kindRaw valueKind = iota
	kindString
	kindObject
	kindArray
)

type member struct {
	key string
	val value
}

// MarshalJSON encodes v, keys in order.
func (v *value) MarshalJSON() ([]byte, error) {
	switch v.kind {
	case kindString:
		return marshalString(v.s)
	case kindRaw:
		return v.raw, nil
	}
	open, closing := byte('['), byte(']')
	if v.kind == kindObject {
		open, closing = '{', '}'
	}
	out := []byte{open}
	for i := range v.items {
		if i > 0 {
			out = append(out, ',')
		}
		if v.kind == kindObject {
			k, err := marshalString(v.items[i].key)
			if err != nil {
				return nil, err
			}
			out = append(append(out, k...), ':')
		}
		b, err := v.items[i].val.MarshalJSON()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return append(out, closing), nil
}

func marshalString(s string) ([]byte, error) {
	b, err := marshal(s)
	if err != nil {
		return nil, err
	}
	return b[:len(b)-1], nil // drop the Encoder's newline
}

// decodeOrdered parses one JSON value; invalid UTF-8 in its strings becomes
// U+FFFD, as encoding/json does when decoding.
func decodeOrdered(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("re-reading an oversized event: %w", err)
	}
	return &v, nil
}

func decodeValue(dec *json.Decoder) (value, error) {
	tok, err := dec.Token()
	if err != nil {
		return value{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		kind := kindArray
		if t == '{' {
			kind = kindObject
		}
		v := value{kind: kind}
		for dec.More() {
			var m member
			if kind == kindObject {
				kt, err := dec.Token()
				if err != nil {
					return value{}, err
				}
				m.key, _ = kt.(string)
			}
			if m.val, err = decodeValue(dec); err != nil {
				return value{}, err
			}
			v.items = append(v.items, m)
		}
		_, err := dec.Token() // the closing delimiter
		return v, err
	case string:
		return value{kind: kindString, s: t}, nil
	case json.Number:
		return value{kind: kindRaw, raw: json.RawMessage(t)}, nil
	case bool:
		return value{kind: kindRaw, raw: json.RawMessage(strconv.FormatBool(t))}, nil
	default:
		return value{kind: kindRaw, raw: json.RawMessage("null")}, nil
	}
}
