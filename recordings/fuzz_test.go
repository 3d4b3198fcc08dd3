package recordings

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzRead feeds arbitrary input to Read: it must return a cast or a
// *FormatError, never panic, and a cast it returns must survive Write and
// Read unchanged.
func FuzzRead(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "casts", "*.cast"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seed casts in testdata/casts: %v", err)
	}
	for _, path := range seeds {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(hdr + "[0.1, \"r\", \"1x1\"]\n[1e2, \"x\", \"-3\"]\n"))
	f.Add([]byte("{\n\"version\": 1\n}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c1, err := Read(bytes.NewReader(in))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line < 1 {
				t.Fatalf("Read error %v (%T) is not a *FormatError with a line", err, err)
			}
			return
		}
		var w1 bytes.Buffer
		if err := Write(&w1, c1); err != nil {
			t.Fatalf("Write refused a cast Read accepted: %v\ninput %q", err, in)
		}
		c2, err := Read(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("Read refused what Write wrote: %v\n%s", err, w1.String())
		}
		if !reflect.DeepEqual(c2.Events, c1.Events) {
			t.Fatalf("events changed in a round trip\n got %q\nwant %q", c2.Events, c1.Events)
		}
		if c1.Header.Version == 2 && !reflect.DeepEqual(c2.Header, c1.Header) {
			t.Fatalf("v2 header changed in a round trip\n got %+v\nwant %+v", c2.Header, c1.Header)
		}
		// A v3 header maps onto v2 once; after that, writing is stable.
		var w2 bytes.Buffer
		if err := Write(&w2, c2); err != nil || w2.String() != w1.String() {
			t.Fatalf("second Write differs (%v)\n%s\nvs\n%s", err, w2.String(), w1.String())
		}
	})
}

// FuzzDecodeEventFast checks the fast event decoder against encoding/json:
// whatever the fast path accepts, encoding/json must decode the same way.
func FuzzDecodeEventFast(f *testing.F) {
	for _, line := range []string{
		`[0.1, "o", "plain"]`, `[12.000003,"i","\r"]`, ` [ 0 , "r" , "80x24" ] `,
		`[1.5, "o", "\u001b[1m\"q\"\\ \/ \b\f\n\r\t"]`, `[1, "o", "\ud83d\ude00 \ud83d \udc00x \ud83dA"]`,
		`[01, "o", "x"]`, `[1., "o", "x"]`, `[1e3, "o", "x"]`, `[1, "o", "x"] junk`, `[1, "o", "x", 4]`,
		"[1, \"o\", \"raw\tcontrol\"]", `[1, "o", "bad \x escape"]`, `[1, "o", "\u12"]`,
	} {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return // Read rejects such lines before decoding them.
		}
		rawTime, code, data, ok := decodeEventFast(b)
		if !ok {
			return
		}
		jt, jcode, jdata, err := decodeEventJSON(b)
		if err != nil {
			t.Fatalf("fast path accepted %q, encoding/json refused it: %v", b, err)
		}
		if !bytes.Equal(rawTime, jt) || code != jcode || data != jdata {
			t.Fatalf("%q: fast path gave %s %q %q, encoding/json %s %q %q", b, rawTime, code, data, jt, jcode, jdata)
		}
	})
}
