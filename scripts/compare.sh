#!/usr/bin/env bash
# Compare yume-cli with expect and pexpect on one workload, in one run, as
# ratios (this machine is shared and noisy): a program prints BYTES of
# coloured output, then asks "(y/n)"; each tool waits for the question and
# answers y. Needs hyperfine, expect and python3-pexpect (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
BYTES=${BYTES:-$((100 << 20))}
RUNS=${RUNS:-5}
mkdir -p bin
go build -o bin/yume-cli ./cmd/yume-cli
go build -o bin/flood ./scripts/flood
flood="$PWD/bin/flood -bytes $BYTES"

cat >bin/compare.exp <<EXP
set timeout -1
log_user 0
spawn {*}[split "$flood"]
expect -re {\(y/n\) \$}
send "y\r"
expect eof
lassign [wait] pid spawnid oserr code
exit \$code
EXP
cat >bin/compare.py <<PY
import pexpect, sys
p = pexpect.spawn("$flood", searchwindowsize=64, maxread=65536)
p.expect(r"\(y/n\) $")
p.sendline("y")
p.expect(pexpect.EOF)
p.close()
sys.exit(p.exitstatus)
PY

hyperfine --warmup 1 --runs "$RUNS" --export-json bin/compare.json \
  -n yume-cli "bin/yume-cli --permission-mode auto --output-format stream-json -- $flood >/dev/null" \
  -n expect "expect bin/compare.exp" \
  -n pexpect "python3 bin/compare.py"

python3 - <<'PY'
import json
r = {x["command"]: x for x in json.load(open("bin/compare.json"))["results"]}
base = r["yume-cli"]["median"]
print("\nmedian seconds, and each peer's time as a multiple of yume-cli's:")
for name, x in r.items():
    print(f"  {name:10s} {x['median']:8.3f} s   x{x['median'] / base:5.2f}")
PY
