package emit

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
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
		{"google oauth", "access " + fake("ya29.", 60, alnum+"-_"), "access [REDACTED:google-oauth-token]"},
		{"api_key assignment", "api_key = " + fake("", 24, alnum), "api_key = [REDACTED:secret-assignment]"},
		{"API-KEY header", "X-API-Key: " + fake("", 32, alnum), "X-API-Key: [REDACTED:secret-assignment]"},
		{"password yaml", "  password: hunter2-horse", "  password: [REDACTED:secret-assignment]"},
		{"password json", `{"password":"c0rrect-h0rse"}`, `{"password":"[REDACTED:secret-assignment]"}`},
		{"token query", "https://h/cb?token=" + fake("", 20, alnum) + "&x=1", "https://h/cb?token=[REDACTED:secret-assignment]&x=1"},
		{"env token", "export MY_SERVICE_TOKEN=" + fake("", 30, alnum), "export MY_SERVICE_TOKEN=[REDACTED:secret-assignment]"},
		{"client secret", `client_secret: "` + fake("", 40, alnum) + `"`, `client_secret: "[REDACTED:secret-assignment]"`},
		{"DB_PASSWORD", "DB_PASSWORD=s3cret!pw", "DB_PASSWORD=[REDACTED:secret-assignment]"},
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
		"input_tokens: 123456, output_tokens: 98765",
		"max_tokens=4096 token=12345678",
		"password: ******** api_key=$API_KEY token=${TOKEN} secret: %s",
		"Enter password: ",
		"the password is read from the keychain; token: none",
		"set api_key = null and password = changeme",
		"tokenizer = Tokenizer(config)",
		"func (k *Key) String() string { return k.name }",
		// A base64url blob holding "-sk-" (seed 1795875758770084489).
		`"data": "BScVkLnV1xWjoK8ikOswsG6HXDRi9_TWcmnc-sk-liAZR14ecM2OLpwHK1ceRPTNOuM-PZiT40vVNiP"`,
	}
	for _, in := range tests {
		if got := Redact(in); got != in {
			t.Errorf("Redact changed ordinary text:\n  in %q\n got %q", in, got)
		}
	}
}

// TestRedactLeavesRandomDataAlone: hashes, UUIDs and base64 blobs are
// not secrets by shape; generated at random (seed printed) so the rules
// are not tuned to a few fixed strings.
func TestRedactLeavesRandomDataAlone(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	bytesOf := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for range 2000 {
		var s string
		switch rng.IntN(6) {
		case 0:
			s = "commit " + hex.EncodeToString(bytesOf(20))
		case 1:
			s = "sha256:" + hex.EncodeToString(bytesOf(32)) + "  file.tar.gz"
		case 2:
			b := bytesOf(16)
			s = fmt.Sprintf("id %x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
		case 3:
			s = base64.StdEncoding.EncodeToString(bytesOf(rng.IntN(300) + 1))
		case 4:
			s = "integrity sha512-" + base64.StdEncoding.EncodeToString(bytesOf(64))
		case 5:
			s = `"data": "` + base64.RawURLEncoding.EncodeToString(bytesOf(rng.IntN(200)+1)) + `"`
		}
		if got := Redact(s); got != s {
			t.Fatalf("Redact changed random data (seed %d):\n  in %q\n got %q", seed, s, got)
		}
	}
}

// TestRedactCommand: in a command to approve, only a secret made of token
// characters is hidden; one whose value could change what runs stays.
func TestRedactCommand(t *testing.T) {
	gh := fake("ghp_", 36, alnum)
	for _, c := range []struct{ in, want string }{
		{"curl -H 'Authorization: Bearer " + gh + "' https://api", "curl -H 'Authorization: Bearer [REDACTED:github-token]' https://api"},
		{"psql postgres://app:pw1234@db/app", "psql postgres://app:[REDACTED:password]@db/app"},
		{"psql 'postgres://app:p;rm -rf x@db/app'", "psql 'postgres://app:p;rm -rf x@db/app'"},
		{"echo hi", "echo hi"},
	} {
		if got := RedactCommand(c.in); got != c.want {
			t.Errorf("RedactCommand(%q)\n got %q\nwant %q", c.in, got, c.want)
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
