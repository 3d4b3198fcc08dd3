package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"go.yaml.in/yaml/v3"
)

// The keys each mapping of the file may have.
var (
	topKeys      = []string{"no_channel", "trust_folders", "timeouts", "path", "env", "providers", "guard"}
	timeoutKeys  = []string{"idle", "turn", "tool"}
	providerKeys = []string{"bin", "env"}
	guardKeys    = []string{"block", "allow"}
	ruleKeys     = []string{"name", "reason", "match", "scope", "check", "paths", "off", "examples", "ordinary"}
	allowKeys    = []string{"match", "reason"}
)

var varName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Parse reads a settings file's text; path names it in messages. Every
// problem is reported at once, as an *Error.
func Parse(path string, data []byte) (*Settings, error) {
	s := &Settings{File: path, Found: true, Providers: map[string]*Provider{}}
	ps := newProblems(data)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		ps.yamlError(err)
		return nil, ps.err(path)
	}
	if len(doc.Content) == 0 {
		return s, nil // empty, or only comments
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		ps.add(root.Line, root.Column, 1, "settings are a mapping of %s", strings.Join(topKeys, ", "))
		return nil, ps.err(path)
	}
	fields(ps, root, topKeys, "", func(key string, v *yaml.Node) {
		switch key {
		case "no_channel":
			s.NoChannel = value(ps, v, key)
			if _, err := permission.ParseFallback(s.NoChannel.Text); err != nil && s.NoChannel.Set() {
				ps.add(v.Line, v.Column, len(v.Value), "no_channel: %q is not one of guard (approve all but what the guard blocks), deny, auto", v.Value)
			}
		case "trust_folders":
			s.TrustFolders = value(ps, v, key)
			if t := s.TrustFolders.Text; s.TrustFolders.Set() && t != "ask" && t != "yes" && t != "no" {
				ps.add(v.Line, v.Column, len(v.Value), "trust_folders: %q is not one of ask (the GUI answers; with no channel the turn ends saying so), yes, no", v.Value)
			}
		case "timeouts":
			fields(ps, v, timeoutKeys, "timeouts.", func(key string, v *yaml.Node) {
				d := duration(ps, v, "timeouts."+key)
				switch key {
				case "idle":
					s.IdleTimeout = d
				case "turn":
					s.TurnTimeout = d
				case "tool":
					s.ToolTimeout = d
				}
			})
		case "path":
			s.Path = dirs(ps, v)
		case "env":
			s.Env = vars(ps, v, "env")
		case "providers":
			parseProviders(ps, v, s)
		case "guard":
			fields(ps, v, guardKeys, "guard.", func(key string, v *yaml.Node) {
				if key == "block" {
					s.Block = rules(ps, v)
				} else {
					s.Allow = exceptions(ps, v)
				}
			})
		}
	})
	if err := ps.err(path); err != nil {
		return nil, err
	}
	return s, nil
}

// fields calls fn for each known key of mapping m; prefix names m in
// messages ("timeouts."). Unknown and repeated keys are problems.
func fields(ps *problems, m *yaml.Node, known []string, prefix string, fn func(key string, v *yaml.Node)) {
	if m.Kind != yaml.MappingNode {
		ps.add(m.Line, m.Column, max(1, len(m.Value)), "%s must be a mapping of %s", strings.TrimSuffix(prefix, "."), strings.Join(known, ", "))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			ps.add(k.Line, k.Column, len(k.Value), "unknown key %q: %suse one of %s", prefix+k.Value, where(prefix), strings.Join(known, ", "))
		case seen[k.Value]:
			ps.add(k.Line, k.Column, len(k.Value), "%s is given twice", prefix+k.Value)
		default:
			seen[k.Value] = true
			fn(k.Value, v)
		}
	}
}

func where(prefix string) string {
	if prefix == "" {
		return ""
	}
	return "under " + strings.TrimSuffix(prefix, ".") + ", "
}

// value reads a scalar.
func value(ps *problems, n *yaml.Node, key string) Value {
	if n.Kind != yaml.ScalarNode {
		ps.add(n.Line, n.Column, 1, "%s must be a single value, not a list or mapping", key)
		return Value{}
	}
	return Value{Text: n.Value, Line: n.Line}
}

func duration(ps *problems, n *yaml.Node, key string) Value {
	v := value(ps, n, key)
	if d, err := time.ParseDuration(v.Text); v.Set() && (err != nil || d <= 0) {
		ps.add(n.Line, n.Column, len(n.Value), "%s: %q is not a duration: write it like 90s, 10m or 1h", key, v.Text)
		return Value{}
	}
	return v
}

// dirs reads path: a list of absolute (or ~/) directories.
func dirs(ps *problems, n *yaml.Node) []Value {
	if n.Kind != yaml.SequenceNode {
		ps.add(n.Line, n.Column, 1, "path must be a list of directories, e.g. [/opt/homebrew/bin, ~/.local/bin]")
		return nil
	}
	var out []Value
	for _, c := range n.Content {
		v := value(ps, c, "path")
		switch {
		case !v.Set():
		case strings.HasPrefix(v.Text, "~/"):
			home, _ := os.UserHomeDir()
			v.Text = filepath.Join(home, v.Text[2:])
			out = append(out, v)
		case !filepath.IsAbs(v.Text):
			ps.add(c.Line, c.Column, len(c.Value), "path: %q is not an absolute directory (start it with / or ~/)", v.Text)
		default:
			out = append(out, v)
		}
	}
	return out
}

// vars reads an env mapping of NAME: value.
func vars(ps *problems, n *yaml.Node, key string) []Var {
	if n.Kind != yaml.MappingNode {
		ps.add(n.Line, n.Column, 1, "%s must be a mapping of NAME: value", key)
		return nil
	}
	var out []Var
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !varName.MatchString(k.Value):
			ps.add(k.Line, k.Column, len(k.Value), "%s: %q is not a variable name (letters, digits and _)", key, k.Value)
		case k.Value == "PATH":
			ps.add(k.Line, k.Column, len(k.Value), "%s: PATH is always set, so this would never apply: list the directories under path: instead", key)
		case v.Kind != yaml.ScalarNode:
			ps.add(v.Line, v.Column, 1, "%s.%s must be a single value", key, k.Value)
		case slices.ContainsFunc(out, func(x Var) bool { return x.Name == k.Value }):
			ps.add(k.Line, k.Column, len(k.Value), "%s.%s is given twice", key, k.Value)
		default:
			out = append(out, Var{Name: k.Value, Value: v.Value, Line: k.Line})
		}
	}
	return out
}

// parseProviders reads providers: name: {bin, env}.
func parseProviders(ps *problems, n *yaml.Node, s *Settings) {
	if n.Kind != yaml.MappingNode {
		ps.add(n.Line, n.Column, 1, "providers must be a mapping of provider names (%s)", strings.Join(providers.Names(), ", "))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p, ok := providers.Lookup(k.Value)
		if !ok {
			ps.add(k.Line, k.Column, len(k.Value), "providers: unknown provider %q: use one of %s", k.Value, strings.Join(providers.Names(), ", "))
			continue
		}
		if s.Providers[p.Name] != nil {
			ps.add(k.Line, k.Column, len(k.Value), "providers.%s is given twice", p.Name)
			continue
		}
		pv := &Provider{}
		s.Providers[p.Name] = pv
		fields(ps, v, providerKeys, "providers."+p.Name+".", func(key string, v *yaml.Node) {
			if key == "bin" {
				pv.Bin = value(ps, v, "providers."+p.Name+".bin")
			} else {
				pv.Env = vars(ps, v, "providers."+p.Name+".env")
			}
		})
	}
}
