package structured

import (
	"errors"
	"fmt"
	"strings"
)

// ACP's auth_required error: the agent needs a login before it starts a
// session or takes a prompt.
const acpAuthRequired = -32000

// acpAuthMethod is one of the ways an agent offers to log in (initialize).
type acpAuthMethod struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// loginError is an agent's auth_required, said as what to do about it.
type loginError struct{ msg string }

func (e *loginError) Error() string { return e.msg }

// loginNeeded turns an auth_required answer into a loginError saying how
// to log in to this agent; other errors are returned as they are.
func (s *acpSession) loginNeeded(err error) error {
	var rpc *acpError
	if !errors.As(err, &rpc) || rpc.Code != acpAuthRequired || !strings.Contains(strings.ToLower(rpc.Message), "auth") {
		return err
	}
	how := s.opts.Provider.Credentials.Fix
	if how == "" {
		var ways []string
		for _, m := range s.authMethods {
			switch {
			case m.Description != "":
				ways = append(ways, m.Description)
			case m.Name != "":
				ways = append(ways, m.Name)
			}
		}
		how = "log in with the agent itself"
		if len(ways) > 0 {
			how = strings.Join(ways, "; or ")
		}
	}
	return &loginError{fmt.Sprintf("%s needs you to log in (%s): %s, then try again", s.agent, rpc.Message, how)}
}

// cannotResume says that the agent offers no session/load.
func (s *acpSession) cannotResume() error {
	if s.opts.Provider.Bin == "" {
		return fmt.Errorf("%s cannot resume sessions (its ACP capabilities offer no loadSession): start a new conversation without --resume", s.agent)
	}
	return fmt.Errorf("%s cannot resume sessions over ACP (its capabilities offer no loadSession): start a new conversation, or use --mode json where %s has it", s.agent, s.agent)
}
