package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// acpConn is a minimal JSON-RPC 2.0 client over newline-delimited JSON, the
// transport of the Agent Client Protocol. It keeps the agent's messages raw
// so the same translator runs over live sessions and recorded ones.
type acpConn struct {
	out io.Writer // the agent's stdin
	// handle is called, on the reading goroutine, for every request and
	// notification from the agent; for a request its return value (or
	// error) is sent back.
	handle func(method string, params json.RawMessage, isRequest bool) (any, error)
	// log receives a copy of every line read and written, when set (for
	// recording sessions).
	log io.Writer

	mu      sync.Mutex // guards writes, nextID and waiting
	nextID  int
	waiting map[string]chan acpMessage
	closed  error
}

type acpMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *acpError       `json:"error,omitempty"`
}

type acpError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *acpError) Error() string {
	if len(e.Data) > 0 && string(e.Data) != "null" {
		return fmt.Sprintf("%s (%d): %s", e.Message, e.Code, e.Data)
	}
	return fmt.Sprintf("%s (%d)", e.Message, e.Code)
}

func newACPConn(out io.Writer, handle func(string, json.RawMessage, bool) (any, error)) *acpConn {
	return &acpConn{out: out, handle: handle, waiting: map[string]chan acpMessage{}}
}

// write sends one message as a line.
func (c *acpConn) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.log != nil {
		_, _ = c.log.Write(append([]byte("> "), b...)) // Best effort: a recording aid.
	}
	_, err = c.out.Write(b)
	return err
}

// call sends a request and waits for its response or ctx.
func (c *acpConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.closed != nil {
		c.mu.Unlock()
		return nil, c.closed
	}
	id := c.nextID
	c.nextID++
	ch := make(chan acpMessage, 1)
	c.waiting[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	if err := c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %w", method, m.Error)
		}
		return m.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// notify sends a notification.
func (c *acpConn) notify(method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// serve reads the agent's messages until EOF, dispatching responses to
// their callers and requests and notifications to handle. Lines that are
// not JSON-RPC are counted as malformed and reported to logw.
func (c *acpConn) serve(r io.Reader, name string, logw io.Writer) (pumpStats, error) {
	tr := acpLines{c}
	st, err := pump(r, tr, name, logw, nil)
	if err == nil {
		err = io.EOF
	}
	c.mu.Lock()
	c.closed = fmt.Errorf("%s closed the ACP connection: %w", name, err)
	for id, ch := range c.waiting {
		ch <- acpMessage{Error: &acpError{Code: -32000, Message: c.closed.Error()}}
		delete(c.waiting, id)
	}
	c.mu.Unlock()
	if errors.Is(err, io.EOF) {
		return st, nil
	}
	return st, err
}

// acpLines adapts the connection to the line pump.
type acpLines struct{ c *acpConn }

func (a acpLines) Finish(error) error { return nil }

func (a acpLines) Line(line []byte) error {
	c := a.c
	if c.log != nil {
		c.mu.Lock()
		_, _ = c.log.Write(append(append([]byte("< "), line...), '\n')) // Best effort, as in write.
		c.mu.Unlock()
	}
	var m acpMessage
	if err := decode(line, &m); err != nil {
		return err
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method == "" && hasID: // a response
		c.mu.Lock()
		ch, ok := c.waiting[string(m.ID)]
		delete(c.waiting, string(m.ID))
		c.mu.Unlock()
		if ok {
			ch <- m
		}
		return nil
	case m.Method == "":
		return fmt.Errorf("%w: JSON-RPC message without method or id", ErrMalformed)
	}
	res, err := c.handle(m.Method, m.Params, hasID)
	if !hasID {
		return err
	}
	if d, ok := res.(acpDeferred); ok && err == nil {
		go func() {
			res, err := d()
			_ = c.respond(m.ID, res, err) // Best effort: the agent may be gone.
		}()
		return nil
	}
	return c.respond(m.ID, res, err)
}

// respond answers the agent's request id with res, or err when it is a
// JSON-RPC error; any other error (our stdout failed) is returned.
func (c *acpConn) respond(id json.RawMessage, res any, err error) error {
	if err != nil {
		var rpcErr *acpError
		if !errors.As(err, &rpcErr) {
			return err // Our stdout failed: stop.
		}
		return c.write(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpcErr})
	}
	return c.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
}
