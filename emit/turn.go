package emit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// ErrTurnEnded is returned by Result when the turn already has its result;
// nothing is written. Call NewTurn to start the next turn.
var ErrTurnEnded = errors.New("emit: this turn already ended with a result; call NewTurn before the next one")

// Result is the end of a turn as reported in the result line.
type Result struct {
	// IsError marks a failed turn (errors, interrupts, crashes).
	IsError bool
	// Subtype defaults to "success", or "error_during_execution" when IsError.
	Subtype string
	// Text is the "result" field: the turn's final answer. For an error
	// result left empty, the errors joined by "; ".
	Text string
	// Errors are the error messages of a failed turn (redacted). An error
	// result without any gets one naming the subtype.
	Errors []string
	// NumTurns defaults to 1.
	NumTurns int
	// Usage is the turn's tokens as the provider reported them, the only
	// top-level usage object of the turn (Yume's backend adds up every
	// top-level usage it sees); nil when the provider reported none, and
	// the result then has no usage. Never estimated, never zeros: Yume
	// takes a result whose input_tokens and output_tokens are both 0 for a
	// compaction (it replaces the answer and forgets the session id), so
	// such a usage is left out unless Compacted says that is what happened.
	Usage *Usage
	// Compacted: the provider compacted the conversation in this turn.
	Compacted bool
	// CostUSD is total_cost_usd; nil (left out) when unknown.
	CostUSD *float64
}

// Usage counts the tokens of a turn (or of one model request), in
// Claude's split: InputTokens are the prompt tokens neither read from nor
// written to the cache, so cache reads + cache creation + input is the
// whole prompt (Yume's context gauge).
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// Add is the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens,
		u.CacheCreationInputTokens + v.CacheCreationInputTokens, u.CacheReadInputTokens + v.CacheReadInputTokens}
}

// Total is every token the request used, of every kind.
func (u Usage) Total() int {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// IsZero reports whether u counts no token at all.
func (u Usage) IsZero() bool { return u == Usage{} }

// Compaction reports whether Yume would take u in a result for a
// compaction: input and output both 0.
func (u Usage) Compaction() bool { return u.InputTokens <= 0 && u.OutputTokens <= 0 }

// Split is a usage reported the way OpenAI's and Gemini's APIs (and the
// CLIs built on them) report it, prompt tokens including the cached ones,
// in Claude's split: input is what remains of prompt once cacheRead and
// cacheWrite are taken out (never below 0).
func Split(prompt, output, cacheRead, cacheWrite int) Usage {
	return Usage{InputTokens: max(prompt-cacheRead-cacheWrite, 0), OutputTokens: output,
		CacheReadInputTokens: cacheRead, CacheCreationInputTokens: cacheWrite}
}

// Cost is a known total_cost_usd, for Result.CostUSD.
func Cost(usd float64) *float64 { return &usd }

// wire is u as written: no count below 0.
func (u Usage) wire() *Usage {
	return &Usage{max(u.InputTokens, 0), max(u.OutputTokens, 0), max(u.CacheCreationInputTokens, 0), max(u.CacheReadInputTokens, 0)}
}

// Result ends the turn: it writes the result line and then message_stop.
// It may be called once per turn; a second call returns ErrTurnEnded and
// writes nothing. duration_ms runs from NewWriter (or the last NewTurn) to
// now, and permission_denials lists this turn's Deny calls ([] when none).
// NoAnswerText is a result's text for a turn that ended without an answer
// in words and without known tokens: never empty, which Yume reads as a
// compaction.
const NoAnswerText = "(the turn ended without an answer in words)"

func (w *Writer) Result(r Result) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.resultLocked(r)
}

func (w *Writer) resultLocked(r Result) error {
	if w.turnEnded {
		return ErrTurnEnded
	}
	// The turn ends even if stdout fails below: a retry must not produce a
	// second result.
	w.turnEnded = true
	w.lastFailed = r.IsError
	w.msgUsage = nil // the next turn's messages say their own
	line := resultLine{
		head:              head{"result"},
		Subtype:           ValidUTF8(r.Subtype),
		IsError:           r.IsError,
		SessionID:         w.sessionID,
		DurationMS:        max(w.now().Sub(w.start).Milliseconds(), 0),
		Result:            Redact(ValidUTF8(r.Text)),
		PermissionDenials: append([]denial{}, w.denials...),
		UUID:              NewUUID(),
	}
	if r.CostUSD != nil {
		line.TotalCostUSD = Cost(max(*r.CostUSD, 0))
	}
	if r.Usage != nil && (!r.Usage.Compaction() || r.Compacted) {
		line.Usage = r.Usage.wire()
	}
	if r.Compacted {
		// Claude's own mark of a compaction, before the result Yume reads
		// as one.
		if err := w.emitLocked(systemLine{head{"system"}, "compact_boundary", "the provider compacted the conversation", w.sessionID, NewUUID()}); err != nil {
			return err
		}
	}
	// A denial recorded from here on (say, between turns of a persistent
	// session) belongs to the next turn's result.
	w.denials = nil
	if line.Usage != nil && line.Usage.CacheReadInputTokens > 0 || r.Compacted {
		// Yume (its wrapperIntegration since 2025) takes a result with
		// num_turns and no cache reads for a compaction: it says
		// num_turns only where that cannot be misread.
		n := max(r.NumTurns, 1)
		line.NumTurns = &n
	}
	if line.Subtype == "" {
		line.Subtype = "success"
		if r.IsError {
			line.Subtype = "error_during_execution"
		}
	}
	if r.IsError {
		for _, e := range r.Errors {
			line.Errors = append(line.Errors, Redact(ValidUTF8(e)))
		}
		if len(line.Errors) == 0 {
			line.Errors = []string{"turn failed: " + line.Subtype}
		}
		if line.Result == "" {
			line.Result = strings.Join(line.Errors, "; ")
		}
	}
	if line.Result == "" && line.Usage == nil && !r.Compacted {
		// Yume's earlier check takes an empty result with no usage for a
		// compaction too.
		line.Result = NoAnswerText
	}
	if err := w.emitLocked(line); err != nil {
		return err
	}
	err := w.emitLocked(bareLine{head{"message_stop"}, NewUUID()})
	w.closed = !w.persist
	return err
}

// NewTurn starts the next turn of a persistent session once the current
// one has ended: Result may be called again and duration_ms counts from
// now. (Permission denials start over at each Result; one recorded between
// turns goes to the next result.) While a turn is still running NewTurn
// does nothing.
func (w *Writer) NewTurn() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.turnEnded {
		return
	}
	w.turnEnded, w.closed = false, false
	w.start = w.now()
}

// LastResultFailed reports whether the last result written was an error
// result: the process's exit code follows it.
func (w *Writer) LastResultFailed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastFailed
}

// TurnEnded reports whether the current turn has its result.
func (w *Writer) TurnEnded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.turnEnded
}

// Fail ends a turn that went wrong: if the turn has not ended it writes a
// system error with err's message and then an error result listing it
// (and message_stop). If the turn already ended it writes nothing and
// returns nil. A nil err is reported as "unknown error".
func (w *Writer) Fail(err error) error {
	msg := "unknown error"
	if err != nil {
		msg = err.Error()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.turnEnded {
		return nil
	}
	if werr := w.systemLocked("error", msg); werr != nil {
		w.turnEnded = true // stdout is gone; no result can follow
		return werr
	}
	return w.resultLocked(Result{IsError: true, Errors: []string{msg}})
}

// debugOut receives panic stacks when YUME_DEBUG=1; tests replace it.
var debugOut io.Writer = os.Stderr

// Guard runs fn and makes sure the turn ends with exactly one result and
// message_stop: when fn returns an error the turn fails with it (Fail);
// when fn panics the panic is recovered and the turn fails with the panic
// message (the stack goes to stderr, only with YUME_DEBUG=1, never to
// stdout); when fn returns nil without ending the turn a plain success
// result is written. Guard returns fn's error, the panic as an error, or
// the error of writing that final result.
func Guard(w *Writer, fn func() error) (err error) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if os.Getenv("YUME_DEBUG") == "1" {
			fmt.Fprintf(debugOut, "yume-cli: panic: %v\n%s", p, debug.Stack())
		}
		err = fmt.Errorf("internal error: %v", p)
		_ = w.Fail(err) // Best effort: err already says what went wrong.
	}()
	if err = fn(); err != nil {
		_ = w.Fail(err) // Best effort: fn's error is the one to report.
		return err
	}
	if err = w.Result(Result{}); errors.Is(err, ErrTurnEnded) {
		return nil // fn ended the turn itself
	}
	return err
}
