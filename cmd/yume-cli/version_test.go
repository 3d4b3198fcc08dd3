package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/run"
)

// TestVersionStamped builds yume-cli as scripts/dist.sh does, with the
// version and commit set by -ldflags -X, and checks that both `version`
// and --version print them.
func TestVersionStamped(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	tests := []struct {
		name    string
		ldflags string
		want    string
		notWant string
	}{
		{
			name:    "version and commit",
			ldflags: "-X main.version=v9.8.7-test -X main.commit=abc1234",
			want:    "yume-cli v9.8.7-test (commit abc1234, go",
		},
		{
			name:    "version only, no VCS stamp",
			ldflags: "-X main.version=v9.8.7-test",
			want:    "yume-cli v9.8.7-test (go",
			notWant: "commit",
		},
		{
			name:    "nothing stamped",
			ldflags: "-s -w",
			want:    "yume-cli dev (go",
			notWant: "commit",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			bin := filepath.Join(t.TempDir(), "yume-cli")
			if runtime.GOOS == "windows" {
				bin += ".exe"
			}
			// -buildvcs=false: the VCS fallback is tested below, without
			// depending on git being installed here.
			build := exec.Command(goBin, "build", "-buildvcs=false", "-trimpath", "-ldflags", tt.ldflags, "-o", bin, ".")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			for _, args := range [][]string{{"version"}, {"--version"}} {
				out, err := exec.Command(bin, args...).CombinedOutput()
				if err != nil {
					t.Fatalf("yume-cli %s: %v\n%s", args[0], err, out)
				}
				got := strings.TrimSpace(string(out))
				if !strings.Contains(got, tt.want) {
					t.Errorf("yume-cli %s = %q, want it to contain %q", args[0], got, tt.want)
				}
				if tt.notWant != "" && strings.Contains(got, tt.notWant) {
					t.Errorf("yume-cli %s = %q, want no %q", args[0], got, tt.notWant)
				}
			}
		})
	}
}

// TestFormatVersionUnstamped checks what an unstamped build (go build,
// go install) reports: the toolchain's module version and VCS revision.
func TestFormatVersionUnstamped(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tail := runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")"
	tests := []struct {
		name            string
		version, commit string
		info            *debug.BuildInfo
		want            string
	}{
		{"no build info", "", "", nil, "yume-cli dev (" + tail},
		{"devel, no VCS", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "yume-cli dev (" + tail},
		{"devel, clean checkout", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")},
			"yume-cli dev (commit 0123456789ab, " + tail},
		{"devel, dirty checkout", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")},
			"yume-cli dev (commit 0123456789ab-dirty, " + tail},
		{"short revision kept whole", "", "", &debug.BuildInfo{Settings: vcs("abc1234", "false")},
			"yume-cli dev (commit abc1234, " + tail},
		{"go install module@version", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}},
			"yume-cli v0.3.0 (" + tail},
		{"stamped wins over build info", "v1.0.0", "feedbee", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: vcs(rev, "true")},
			"yume-cli v1.0.0 (commit feedbee, " + tail},
		{"stamped version, VCS commit", "v1.0.0", "", &debug.BuildInfo{Settings: vcs(rev, "false")},
			"yume-cli v1.0.0 (commit 0123456789ab, " + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatVersion(tt.version, tt.commit, tt.info); got != tt.want {
				t.Errorf("formatVersion(%q, %q, …) = %q, want %q", tt.version, tt.commit, got, tt.want)
			}
		})
	}
}

// TestNewCmdVersion: version takes no argument and no flag of its own.
func TestNewCmdVersion(t *testing.T) {
	ios := &run.IOStreams{}
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"bare", nil, false},
		{"an argument", []string{"x"}, true},
		{"an unknown flag", []string{"--bogus"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *VersionOptions
			err := execCmd(NewCmdVersion(ios, func(o *VersionOptions) error { got = o; return nil }), tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if tt.wantErr {
				if got != nil {
					t.Errorf("runF ran after %v", err)
				}
				return
			}
			if got == nil || got.IO != ios {
				t.Errorf("options %+v, want IO %p", got, ios)
			}
		})
	}
}
