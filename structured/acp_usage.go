package structured

import "github.com/yume-cli/yume-cli/emit"

// promptResult is a session/prompt response. Token counts are not in ACP v1;
// Copilot, opencode and Kilo report them in "usage", Gemini in
// "_meta.quota.token_count" (Qwen Code with each message: acpTranslator).
type promptResult struct {
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens       int `json:"inputTokens"`
		OutputTokens      int `json:"outputTokens"`
		CachedReadTokens  int `json:"cachedReadTokens"`
		CachedWriteTokens int `json:"cachedWriteTokens"`
	} `json:"usage"`
	Meta struct {
		Quota struct {
			TokenCount *struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
			} `json:"token_count"`
		} `json:"quota"`
	} `json:"_meta"`
}

// usage is the turn's tokens the response tells, in Claude's split; nil
// when it tells none. Copilot's inputTokens count the cached tokens too
// (as the OpenAI API does), opencode's and Kilo's do not (omitsCache);
// Gemini's input_tokens count them with no word of how many.
func (p promptResult) usage(omitsCache bool) *emit.Usage {
	switch u := p.Usage; {
	case u != nil && omitsCache:
		return &emit.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CachedReadTokens, CacheCreationInputTokens: u.CachedWriteTokens}
	case u != nil:
		s := emit.Split(u.InputTokens, u.OutputTokens, u.CachedReadTokens, u.CachedWriteTokens)
		return &s
	case p.Meta.Quota.TokenCount != nil:
		return &emit.Usage{InputTokens: p.Meta.Quota.TokenCount.InputTokens, OutputTokens: p.Meta.Quota.TokenCount.OutputTokens}
	}
	return nil
}

// usageFromTranscript sets the turn's usage from the agent's transcript,
// where it is split by the cache, once the agent answered the prompt: what
// the transcript gained by now (one more read a moment later if none yet).
// The response's own count stays when the transcript has none.
func (s *acpSession) usageFromTranscript() {
	s.mu.Lock()
	src := s.transcript
	s.mu.Unlock()
	if src == nil {
		return
	}
	u, ok := pollUsage(src, &s.tally)
	if ok {
		s.mu.Lock()
		s.tr.setUsage(u)
		s.mu.Unlock()
	}
}
