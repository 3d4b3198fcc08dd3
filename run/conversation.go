package run

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/background"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/sessions"
	"github.com/yume-cli/yume-cli/transcript"
)

// conversation ties a turn to the session store: Yume continues a chat
// with --resume and the session_id of its first init, which is yume-cli's
// own id; the store keeps, under that id, the provider's own session (the
// handle that resumes it) and what was said.
type conversation struct {
	store *sessions.Store
	tap   *sessions.Tap
	mu    sync.Mutex        // turns of a persistent session end on the writer's goroutine
	sess  *sessions.Session // nil until the turn starts
	// resumed: the store holds the session (--resume named it, or a turn
	// of this process was stored), so its handle resumes the provider's.
	resumed bool
	// asked is the user's prompt as given, when history was put before it.
	asked string
	// recorder, when set, keeps the prompts for --output-file.
	recorder *background.Recorder
	// saves counts the session's saves: a checkpoint made in the
	// background is skipped when a later save came first. So none is
	// left writing once the turn's end has stored the session: one that
	// held the lock first ended before that store.
	saves int
}

// historyBudget bounds the conversation given as context to a provider
// session that has not seen it: about 12k tokens, newest turns whole.
const historyBudget = 48 << 10

// withHistory puts --history-file's conversation before the prompt when
// the provider's session does not know it (a new one: nothing to resume),
// and keeps it as the start of the stored history.
func (c *conversation) withHistory(cfg *Config) error {
	if cfg.HistoryFile == "" {
		return nil
	}
	hist, err := sessions.ReadHistory(cfg.HistoryFile)
	if err != nil {
		return err
	}
	if c.handle() != "" {
		if cfg.Verbose {
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: --history-file not used: %s's own session %s already holds the conversation\n", cfg.provider().Title, c.handle())
		}
		return nil
	}
	c.asked = cfg.Prompt
	cfg.Prompt = sessions.WithHistory(hist, cfg.Prompt, historyBudget)
	if len(c.sess.History) == 0 {
		c.sess.History = append(c.sess.History, hist...)
	}
	if cfg.Verbose {
		fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: %d history entries from %s given to %s as context (%d bytes)\n", len(hist), cfg.HistoryFile, cfg.provider().Title, len(cfg.Prompt)-len(c.asked))
	}
	return nil
}

// prompt is the user's prompt as given (without the history before it).
func (c *conversation) prompt(cfg *Config) string {
	if c.asked != "" {
		return c.asked
	}
	return cfg.Prompt
}

func newConversation() *conversation {
	return &conversation{store: sessions.Open(sessions.DefaultRoot()), tap: &sessions.Tap{}}
}

// tee is where the event stream goes besides stdout: the tap that keeps
// the history.
func (c *conversation) tee(out io.Writer) io.Writer { return io.MultiWriter(out, c.tap) }

// begin loads the session --resume names, or starts a new one with id. A
// resumed session must be this provider's.
func (c *conversation) begin(cfg *Config, id string) error {
	p := cfg.provider()
	if cfg.Resume == "" {
		now := time.Now().UTC()
		c.sess = &sessions.Session{ID: id, Provider: p.Name, Model: cfg.Model, Cwd: cfg.Cwd, Created: now, Updated: now}
		return nil
	}
	sess, err := c.store.Load(cfg.Resume)
	switch {
	case errors.Is(err, sessions.ErrNotFound):
		return fmt.Errorf("--resume %s: yume-cli has no session %s (in %s): start a new conversation, or resume one `yume-cli sessions list` shows", cfg.Resume, cfg.Resume, c.store.Root())
	case err != nil:
		return fmt.Errorf("--resume %s: %w", cfg.Resume, err)
	case sess.Provider != p.Name:
		return fmt.Errorf("--resume %s: the session belongs to %s, not %s; sessions do not move between providers: resume it with --provider %s, or start a new one (--history-file gives %s the conversation so far)",
			cfg.Resume, sess.Provider, p.Name, sess.Provider, p.Name)
	}
	if sess.Handle != "" {
		// The handle goes on the provider's command line (--resume ID):
		// one that is not the provider's id shape is refused, not run.
		if err := p.CheckSession(sess.Handle); err != nil {
			return fmt.Errorf("--resume %s: the stored session cannot be continued (its provider session: %v): start a new conversation", cfg.Resume, err)
		}
	}
	c.sess, c.resumed = sess, true
	if cfg.Model == "" {
		cfg.Model = sess.Model
	}
	return nil
}

// handle is the provider's session to resume ("" for a new one).
func (c *conversation) handle() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resumed && c.sess != nil {
		return c.sess.Handle
	}
	return ""
}

// providerSessionThere checks that the provider still has the session a
// resumed conversation continues: its transcript src must be found. It reads
// the transcript to its end, so what it holds (earlier turns) is not news to
// the turn. A session that is gone is an error, and nothing is stored.
func (c *conversation) providerSessionThere(p *providers.Provider, src transcript.Source) error {
	if _, _ = src.Poll(); src.Path() != "" {
		return nil
	}
	err := fmt.Errorf("--resume %s: %s's own session %s, which it continues, is gone (%s no longer has it): start a new conversation",
		c.sess.ID, p.Name, c.sess.Handle, p.Title)
	c.sess = nil
	return err
}

// earlierAnswers are the assistant's answers of a resumed session: its
// program shows them again when it starts.
func (c *conversation) earlierAnswers() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.resumed || c.sess == nil {
		return nil
	}
	var out []string
	for _, e := range c.sess.History {
		if e.Role == "assistant" && e.Text != "" {
			out = append(out, e.Text)
		}
	}
	return out
}

// said records the user's prompt of a turn that starts.
func (c *conversation) said(prompt string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess != nil && prompt != "" {
		c.sess.History = append(c.sess.History, sessions.Entry{Role: "user", Time: time.Now().UTC(), Text: emit.Redact(prompt)})
	}
	if c.recorder != nil {
		c.recorder.Prompt(emit.Redact(prompt))
	}
}

// checkpoint stores the session as soon as the provider's handle is
// known, so a yume-cli killed in the middle of the turn (Yume kills with
// SIGKILL) leaves a session that --resume continues. The save is made in
// the background: the handle is often read from the provider's transcript
// as its first question is, and the save's fsync (0.2–4 ms here, more on
// macOS, where Go syncs with F_FULLFSYNC) held that question back.
func (c *conversation) checkpoint(mode, handle string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil || handle == "" || (c.resumed && c.sess.Handle == handle) {
		return
	}
	c.sess.Handle, c.sess.Mode, c.sess.Updated = handle, mode, time.Now().UTC()
	want := c.saves
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.saves == want { // else a later save stored it all
			c.saves++
			_ = c.store.Save(c.sess) // Best effort: the turn's end saves again and reports.
		}
	}()
}

// turnEnded stores what the stream said since the last turn, the
// provider's session handle (if known) and how it was driven.
func (c *conversation) turnEnded(mode, handle string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return nil
	}
	c.saves++
	entries, usage := c.tap.Take()
	c.sess.History = append(c.sess.History, entries...)
	c.sess.Usage.InputTokens += usage.InputTokens
	c.sess.Usage.OutputTokens += usage.OutputTokens
	if handle != "" {
		c.sess.Handle = handle
	}
	if mode != "" {
		c.sess.Mode = mode
	}
	c.sess.Updated = time.Now().UTC()
	if err := c.store.Save(c.sess); err != nil {
		return err
	}
	c.resumed = true
	return nil
}
