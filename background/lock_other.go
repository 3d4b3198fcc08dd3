//go:build !unix && !windows

package background

import "os"

// tryLock fails where there is no file lock: the run says it could not
// lock the tree.
func tryLock(*os.File) (bool, error) { return false, errUnsupported }

func unlock(*os.File) {}
