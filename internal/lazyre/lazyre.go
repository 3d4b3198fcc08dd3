// Package lazyre holds regular expressions that compile on their first
// use instead of at package init. yume-cli's packages keep about a
// hundred, for every provider, dialog and error shape; a run uses a few of
// them. Compiled at init, every start (and the watchdog's, and every
// probe's) paid 2–4 ms and about 1.4 MB of allocations for them, before
// the program it drives could start.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Its methods are
// those of regexp.Regexp that yume-cli calls.
type Regexp struct {
	expr string
	re   func() *regexp.Regexp
}

var (
	allMu sync.Mutex
	all   []*Regexp
)

// New returns expr, to be compiled on first use. Call it only where a
// MustCompile would run once (a package-level variable): each call is
// remembered, so that CompileAll can check every expression.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// CompileAll compiles every expression made by New so far, and reports
// the first that does not compile: a test of a program that links every
// package finds a bad one before a user's run does.
func CompileAll() error {
	allMu.Lock()
	defer allMu.Unlock()
	for _, r := range all {
		if _, err := regexp.Compile(r.expr); err != nil {
			return err
		}
	}
	return nil
}

// Get is the compiled expression.
func (r *Regexp) Get() *regexp.Regexp { return r.re() }

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) Match(b []byte) bool       { return r.re().Match(b) }
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }
func (r *Regexp) FindString(s string) string {
	return r.re().FindString(s)
}
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.re().FindSubmatch(b) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *Regexp) SubexpIndex(name string) int { return r.re().SubexpIndex(name) }
