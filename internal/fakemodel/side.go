package fakemodel

import (
	"context"
	"fmt"
)

// SideRequests returns the requests Script.Side answered.
func (s *Server) SideRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Side {
			out = append(out, r)
		}
	}
	return out
}

// WaitSideRequests blocks until at least n requests were answered by
// Script.Side, or ctx ends, and returns them.
func (s *Server) WaitSideRequests(ctx context.Context, n int) ([]Request, error) {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if got := s.SideRequests(); len(got) >= n {
			return got, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.SideRequests(), fmt.Errorf("fakemodel: waiting for %d side requests: %w", n, ctx.Err())
		}
	}
}
