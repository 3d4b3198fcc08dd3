package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/yume-cli/yume-cli/run"
	"github.com/yume-cli/yume-cli/tracepage"
)

// htmlPage is the page `replay --html` writes: what it needs before the
// replay (the cast as its file holds it, a --trace-in trace) and what it
// gathers during it (the replay's trace and tool events).
type htmlPage struct {
	col   tracepage.Collector
	path  string
	title string
	about string
	cast  []byte
	trace []json.RawMessage // --trace-in; nil: the replay's own
}

// newHTMLPage reads what the page needs before the replay starts, so a
// missing --trace-in fails before anything is replayed; nil without --html.
func newHTMLPage(o *ReplayOptions, profile string) (*htmlPage, error) {
	if o.HTML == "" {
		return nil, nil
	}
	cast, err := os.ReadFile(o.File)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	p := &htmlPage{path: o.HTML, title: filepath.Base(o.File), cast: cast}
	p.about = "trace: this replay, with the " + profile + " profile"
	if o.RulesFile != "" {
		p.about += " and " + o.RulesFile
	}
	if o.TraceIn != "" {
		f, err := os.Open(o.TraceIn)
		if err != nil {
			return nil, fmt.Errorf("--trace-in: %w", err)
		}
		defer f.Close()
		if p.trace, err = tracepage.ReadTrace(f); err != nil {
			return nil, fmt.Errorf("--trace-in %s: %w", o.TraceIn, err)
		}
		p.about = "trace: " + o.TraceIn + " (a live run); tool_use and tool_result: this replay of the recording"
	}
	return p, nil
}

// write writes the page to its file.
func (p *htmlPage) write() error {
	f, err := run.CreatePrivate(p.path)
	if err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	if err := p.col.Page(p.title, p.about, p.cast, p.trace).Write(f); err != nil {
		_ = f.Close()
		return fmt.Errorf("--html: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return nil
}
