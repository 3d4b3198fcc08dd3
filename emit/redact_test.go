package emit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fake builds a token-shaped string of n characters. Test secrets are built
// at run time so that secret scanners do not flag this file.
func fake(prefix string, n int, alphabet string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[(i*7+3)%len(alphabet)])
	}
	return b.String()
}

const (
	alnum = "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8"
	upnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

func TestRedact(t *testing.T) {
	pem := "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234\nabcd==\n-----END RSA PRIVATE KEY-----"
	tests := []struct {
		name, in, want string
	}{
		{"github ghp", "token " + fake("ghp_", 36, alnum) + " end", "token [REDACTED:github-token] end"},
		{"github gho", fake("gho_", 36, alnum), "[REDACTED:github-token]"},
		{"github ghu", fake("ghu_", 40, alnum), "[REDACTED:github-token]"},
		{"github ghs", "x=" + fake("ghs_", 36, alnum), "x=[REDACTED:github-token]"},
		{"github ghr", fake("ghr_", 36, alnum), "[REDACTED:github-token]"},
		{"github fine-grained pat", fake("github_pat_", 82, alnum+"_"), "[REDACTED:github-token]"},
		{"openai legacy", "OPENAI_API_KEY=" + fake("sk-", 48, alnum), "OPENAI_API_KEY=[REDACTED:openai-key]"},
		{"openai project", fake("sk-proj-", 64, alnum+"-_"), "[REDACTED:openai-key]"},
		{"anthropic", "key: " + fake("sk-ant-api03-", 93, alnum+"-_"), "key: [REDACTED:anthropic-key]"},
		{"google", `"key":"` + fake("AIza", 35, alnum+"-_") + `"`, `"key":"[REDACTED:google-api-key]"`},
		{"aws access key id", "id " + fake("AKIA", 16, upnum), "id [REDACTED:aws-access-key-id]"},
		{"aws session key id", fake("ASIA", 16, upnum), "[REDACTED:aws-access-key-id]"},
		{"aws secret ini", "aws_secret_access_key = " + fake("", 40, alnum+"/+"), "aws_secret_access_key = [REDACTED:aws-secret-access-key]"},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + fake("", 40, alnum), "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key]"},
		{"aws secret json", `"aws_secret_access_key": "` + fake("", 40, alnum) + `"`, `"aws_secret_access_key": "[REDACTED:aws-secret-access-key]"`},
		{"npm", "//registry.npmjs.org/:_authToken=" + fake("npm_", 36, alnum), "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"},
		{"pem block", "before\n" + pem + "\nafter", "before\n[REDACTED:private-key]\nafter"},
		{"pem cut short", "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADAN", "[REDACTED:private-key]"},
		{"postgres password", "postgres://admin:hunter2@db.example.com:5432/app", "postgres://admin:[REDACTED:password]@db.example.com:5432/app"},
		{"mongodb srv", "mongodb+srv://app:p%40ss@cluster0.example.net/db", "mongodb+srv://app:[REDACTED:password]@cluster0.example.net/db"},
		{"redis", "redis://default:s3cr3t@127.0.0.1:6379", "redis://default:[REDACTED:password]@127.0.0.1:6379"},
		{"url after punctuation", `url="amqp://guest:guest@rabbit/"`, `url="amqp://guest:[REDACTED:password]@rabbit/"`},
		{"two urls on a line", "a://u:p@h b://v:q@i", "a://u:[REDACTED:password]@h b://v:[REDACTED:password]@i"},
		{"authorization header", "Authorization: Bearer abc.def", "Authorization: Bearer [REDACTED:bearer-token]"},
		{"curl header", `curl -H "authorization: bearer ` + fake("", 20, alnum) + `"`, `curl -H "authorization: bearer [REDACTED:bearer-token]"`},
		{"bare bearer", "sent Bearer " + fake("eyJ", 40, alnum+".") + " ok", "sent Bearer [REDACTED:bearer-token] ok"},
		{"slack bot", fake("xoxb-", 50, alnum+"-"), "[REDACTED:slack-token]"},
		{"slack user", "t=" + fake("xoxp-", 30, alnum), "t=[REDACTED:slack-token]"},
		{"two secrets", fake("ghp_", 36, alnum) + " " + fake("npm_", 36, alnum), "[REDACTED:github-token] [REDACTED:npm-token]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactLeavesOrdinaryTextAlone(t *testing.T) {
	tests := []string{
		"",
		"npm test passed: 42 tests, 0 failures",
		"the task-runner-configuration-file-for-2024 is ready",
		"ask-me-anything-about-this-library-v2024",
		"sk-learn-compatible-estimators-for-tabular-data",
		"disk-usage-report-for-the-whole-cluster",
		"see http://localhost:8080/path and https://example.com/a@b",
		"git@github.com:owner/repo.git and ssh://git@host:22/repo",
		"https://user@example.com/only-a-user",
		"1http://u:p@h is not a URL at a word start",
		"http://host:8080/a@b has no user info",
		"see ://u:p@h without a scheme",
		"mail admin@example.com: the secret is out",
		"bearer bonds are risky; the Bearer of bad news",
		"Bearer authentication-without-any-digits",
		"AKIA123 is too short, ghp_short too, AIzaShort too",
		"npm_config_cache=/tmp/npm",
		"xoxo, hugs",
		"-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----",
		"aws_secret_access_key is read from the environment",
		"func (s *Server) Authorization(ctx context.Context) error {",
		"日本語のテキスト sk- はキーではない",
	}
	for _, in := range tests {
		if got := Redact(in); got != in {
			t.Errorf("Redact changed ordinary text:\n  in %q\n got %q", in, got)
		}
	}
}

// sampleOutput is a typical 100 KB of test-runner output with no secret.
func sampleOutput() string {
	line := "=== RUN   TestSomething/case_42\n--- PASS: TestSomething/case_42 (0.01s) see https://example.com/docs\n"
	return strings.Repeat(line, 100*1024/len(line))
}

func BenchmarkRedactClean(b *testing.B) {
	s := sampleOutput()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(s)
	}
}

func BenchmarkRedactNoTrigger(b *testing.B) {
	s := strings.Repeat("plain build output line without any markers\n", 2300)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(s)
	}
}

func BenchmarkRedactWithSecrets(b *testing.B) {
	s := sampleOutput() + "postgres://u:pw@h/db " + fake("ghp_", 36, alnum) + " Authorization: Bearer x1y2z3\n"
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(s)
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("postgres://u:pw@h/db")
	f.Add("Authorization: Bearer abc123def456ghi789")
	f.Add(fake("ghp_", 36, alnum) + " " + fake("sk-", 48, alnum))
	f.Add("-----BEGIN PRIVATE KEY-----\nabc")
	f.Fuzz(func(t *testing.T, s string) {
		once := Redact(s)
		if utf8.ValidString(s) && !utf8.ValidString(once) {
			t.Fatalf("Redact broke UTF-8: %q -> %q", s, once)
		}
		if twice := Redact(once); twice != once {
			t.Fatalf("Redact is not idempotent: %q -> %q -> %q", s, once, twice)
		}
	})
}
