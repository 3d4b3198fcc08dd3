package structured

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// Translator turns the output lines of one provider's machine-readable mode
// into emit events. It does no I/O of its own besides the Writer.
type Translator interface {
	// Line handles one line of provider output. It returns ErrMalformed
	// (wrapped) for a line that is not a JSON object of the expected shape,
	// which the caller logs and skips, and the Writer's error when stdout
	// fails.
	Line(line []byte) error
	// Finish is called once the provider's output has ended; exit is how the
	// process ended (nil for status 0). If the provider never finished the
	// turn, Finish ends it with an error result.
	Finish(exit error) error
}

// ErrMalformed marks a provider line that could not be understood.
var ErrMalformed = errors.New("malformed provider line")

// JSONTranslator is the translator of one turn of a JSON mode: its
// format's Line and Finish over the turn state every format shares, which
// Run sets up (notice, dangers, session hook, transcript) and ends on an
// interrupt through the embedded turn.
type JSONTranslator struct {
	Translator
	*turn
	// claude is the translator when the format is Claude's stream-json,
	// whose permission requests Run relays; nil for the other formats.
	claude *claudeTranslator
}

// formats set up the translator by format name (providers.Mode.Format):
// the name of the protocol a provider's machine-readable mode speaks.
var formats = map[string]func(j *JSONTranslator){
	"claude-stream-json": func(j *JSONTranslator) { j.claude = &claudeTranslator{turn: j.turn}; j.Translator = j.claude },
	"codex-exec-json":    func(j *JSONTranslator) { j.Translator = &codexTranslator{turn: j.turn, salt: emit.NewUUID()[:8]} },
	"copilot-json": func(j *JSONTranslator) {
		j.Translator = &copilotTranslator{turn: j.turn, deltas: map[string]*strings.Builder{}}
	},
	"gemini-stream-json": func(j *JSONTranslator) { j.Translator = &geminiTranslator{turn: j.turn} },
	"opencode-json":      func(j *JSONTranslator) { j.Translator = &openCodeTranslator{turn: j.turn} },
	"qwen-stream-json": func(j *JSONTranslator) {
		// Its usage counts input as the OpenAI API does, cached tokens in.
		j.Translator = &qwenTranslator{claude: &claudeTranslator{turn: j.turn, inputHasCache: true}}
	},
}

// NewTranslator returns the translator for mode of provider p (a mode of
// p.Structured that is not ACP). permissionMode is reported in system/init.
func NewTranslator(p *providers.Provider, mode providers.Mode, w *emit.Writer, permissionMode string) (*JSONTranslator, error) {
	setUp, ok := formats[mode.Format]
	if !ok {
		return nil, fmt.Errorf("no translator for the %q format of %s's %s mode", mode.Format, p.Name, mode.Name)
	}
	j := &JSONTranslator{turn: newTurn(w, p, permissionMode)}
	setUp(j)
	return j, nil
}
