package providers

import (
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

var versionRE = lazyre.New(`\d+\.\d+\.\d+`)

// Supports reports whether version is at least since. An unknown or
// unparsable version counts as new enough; an empty since means never.
func Supports(version, since string) bool {
	if since == "" {
		return false
	}
	v := versionRE.FindString(version)
	if v == "" {
		return true
	}
	return CompareVersions(v, since) >= 0
}

// CompareVersions compares two x.y.z strings numerically: -1, 0 or 1.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}
