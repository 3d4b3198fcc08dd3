package emit

import (
	"regexp"
	"testing"
)

func TestIDFormats(t *testing.T) {
	tests := []struct {
		name string
		gen  func() string
		re   *regexp.Regexp
	}{
		{"session", NewSessionID, regexp.MustCompile(`^sess-[0-9a-f]{16}$`)},
		{"tool use", NewToolUseID, regexp.MustCompile(`^toolu_[0-9A-Za-z]{24}$`)},
		{"message", newMessageID, regexp.MustCompile(`^msg_[0-9A-Za-z]{24}$`)},
		{"request", newRequestID, regexp.MustCompile(`^req_[0-9A-Za-z]{24}$`)},
		{"uuid v4", NewUUID, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := make(map[string]bool)
			for range 1000 {
				id := tt.gen()
				if !tt.re.MatchString(id) {
					t.Fatalf("%q does not match %s", id, tt.re)
				}
				if seen[id] {
					t.Fatalf("duplicate id %q", id)
				}
				seen[id] = true
			}
		})
	}
}

func TestRandomBase62UsesWholeAlphabet(t *testing.T) {
	// A bias or a short alphabet would show up as missing characters.
	seen := make(map[rune]bool)
	for _, r := range randomBase62(20000) {
		seen[r] = true
	}
	if len(seen) != len(base62) {
		t.Errorf("saw %d distinct characters, want %d", len(seen), len(base62))
	}
}

func TestParseProtocol(t *testing.T) {
	tests := []struct {
		in      string
		want    Protocol
		wantErr bool
	}{
		{"", Claude, false},
		{"claude", Claude, false},
		{" Flat ", Flat, false},
		{"FLAT", Flat, false},
		{"json", "", true},
	}
	for _, tt := range tests {
		got, err := ParseProtocol(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseProtocol(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestRandomBytesConcurrent draws from the shared generator from several
// goroutines and checks that no two draws repeat (which a generator state
// copied or raced on would show; -race sees the data race itself).
func TestRandomBytesConcurrent(t *testing.T) {
	const workers, draws = 4, 2000
	results := make(chan [16]byte, workers*draws)
	done := make(chan struct{})
	for range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for range draws {
				var b [16]byte
				randomBytes(b[:])
				results <- b
			}
		}()
	}
	for range workers {
		<-done
	}
	close(results)
	seen := make(map[[16]byte]bool)
	for b := range results {
		if seen[b] {
			t.Fatalf("draw %x was handed out twice", b)
		}
		seen[b] = true
	}
}
