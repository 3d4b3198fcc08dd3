package run

import "fmt"

// ExitError ends the process with Code after its message (if any) was
// already reported, on stderr and, when asked, as protocol events.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }
