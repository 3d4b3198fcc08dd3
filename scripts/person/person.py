#!/usr/bin/env python3
"""Play a person at a terminal while `yume-cli record` records a program.

person.py spawns `yume-cli record -o CAST -- CMD…` in a pseudo-terminal of
its own (so record sees a real terminal, sets it raw and copies every key
it reads into the cast as the program gets it) and then behaves like
someone sitting at that terminal: for each --step it waits until the
question text is on the output, looks at it for a moment (100-300 ms), and
types the answer one key at a time with a typist's gaps between the keys.
When the steps are done it waits for the program to exit.

With --tmux the person's terminal is a tmux pane instead (a private tmux
server, its socket under --tmux-dir): record runs in the pane, the person
reads what the pane printed (tmux pipe-pane) and types with tmux
send-keys, so the program sees tmux's terminal (TERM=tmux-256color) and
its answers to terminal queries, as someone working in tmux does.

The keys use yume-cli's key notation: literal text plus <Enter> <Esc>
<Tab> <Space> <BS> <Up> <Down> <Left> <Right> <C-a>..<C-z> <lt>, and
<wait=S>, a pause of S seconds before the next key (a person thinking
before pressing Enter); arrows
follow the cursor-key mode the program set (ESC O x under DECCKM), as a
real terminal sends them.

  scripts/person/person.py --yc .wt/yc --cast out.cast --cwd /tmp/x \\
      --step 'Overwrite \\(y/n\\)\\? ?$' 'y<Enter>' -- ssh-keygen -f k -N ''

A step's EXPECT is a Python regex searched in the output printed since the
previous step's match, with escape sequences taken out and, unless it
contains a newline, each line on its own (re.M). Exits 0 when every step was
answered and the program exited; 2 when a question did not show up in time
(the screen so far is printed).
"""

import argparse
import fcntl
import os
import pty
import random
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time

NAMED = {
    "enter": "\r", "esc": "\x1b", "tab": "\t", "space": " ", "bs": "\x7f",
    "lt": "<", "del": "\x1b[3~",
}
ARROWS = {"up": "A", "down": "B", "right": "C", "left": "D"}

# CSI, OSC, two-byte escapes: what the person does not read.
ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_].*?\x1b\\|\x1b[()][0-9A-Za-z]|\x1b[=>78cDEHMNOZ]"
)


def parse_keys(s):
    """Splits key notation into keystrokes: each a string of bytes to send,
    or ("arrow", letter) resolved when typed."""
    out, i = [], 0
    while i < len(s):
        if s[i] == "<":
            j = s.index(">", i)
            name = s[i + 1:j].lower()
            i = j + 1
            if name in NAMED:
                out.append(NAMED[name])
            elif name in ARROWS:
                out.append(("arrow", ARROWS[name]))
            elif name.startswith("wait="):
                out.append(("wait", float(name[5:])))
            elif len(name) == 3 and name.startswith("c-"):
                out.append(chr(ord(name[2]) - ord("a") + 1))
            else:
                raise SystemExit("person.py: unknown key <%s>" % name)
        else:
            out.append(s[i])
            i += 1
    return out


class Terminal:
    """The person's terminal: the master side of record's pty."""

    def __init__(self, fd, log):
        self.fd, self.log = fd, log
        self.raw = b""
        self.app_cursor = False
        self.eof = False

    def pump(self, timeout):
        """Reads what is there within timeout; returns False at EOF."""
        if self.eof:
            return False
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return False
        self.raw += data
        if self.log:
            self.log.write(data)
            self.log.flush()
        for m in re.finditer(rb"\x1b\[\?1([hl])", data):
            self.app_cursor = m.group(1) == b"h"
        # A real terminal answers a cursor-position query; answer with a
        # plausible position so a program that asks does not wait forever.
        if b"\x1b[6n" in data:
            os.write(self.fd, b"\x1b[1;1R")
        return True

    def text(self):
        t = ESCAPES.sub("", self.raw.decode("utf-8", "replace"))
        return t.replace("\r\n", "\n").replace("\r", "\n")

    def wait_for(self, pattern, start, timeout):
        """Waits until pattern shows up in the text after start; returns
        the end of the match, or -1 on timeout or EOF."""
        flags = 0 if "\n" in pattern else re.M
        rx = re.compile(pattern, flags)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.text(), start)
            if m:
                return m.end()
            left = deadline - time.monotonic()
            if left <= 0 or not self.pump(min(left, 0.05)):
                m = rx.search(self.text(), start)
                return m.end() if m else -1

    def idle(self, seconds):
        """Keeps reading (a terminal never stops showing output) while the
        person waits."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if not self.pump(left):
                time.sleep(max(0, end - time.monotonic()))
                return

    def type(self, keys, rng):
        for n, k in enumerate(keys):
            if n:
                self.idle(rng.uniform(0.06, 0.16))
            if isinstance(k, tuple) and k[0] == "wait":
                self.idle(k[1])  # the person thinks before the next key
                continue
            if isinstance(k, tuple):
                k = ("\x1bO" if self.app_cursor else "\x1b[") + k[1]
            os.write(self.fd, k.encode())


# tmux's names for the keys parse_keys makes.
TMUX_KEYS = {"\r": "Enter", "\x1b": "Escape", "\t": "Tab", " ": "Space", "\x7f": "BSpace", "\x1b[3~": "DC"}
TMUX_ARROWS = {"A": "Up", "B": "Down", "C": "Right", "D": "Left"}


class TmuxTerminal(Terminal):
    """The person's terminal as a tmux pane: output is what tmux pipe-pane
    copies out of the pane, keys go in with send-keys (tmux encodes arrows
    for the pane's cursor-key mode, as a terminal does)."""

    def __init__(self, tmux, target, out, log, env):
        super().__init__(None, log)
        self.tmux, self.target, self.env = tmux, target, env
        self.out = open(out, "rb")

    def alive(self):
        return subprocess.run(self.tmux + ["has-session", "-t", self.target], env=self.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

    def pump(self, timeout):
        if self.eof:
            return False
        end = time.monotonic() + timeout
        while True:
            data = self.out.read()
            if data:
                self.raw += data
                if self.log:
                    self.log.write(data)
                    self.log.flush()
                return True
            if not self.alive():
                self.raw += self.out.read()
                self.eof = True
                return False
            left = end - time.monotonic()
            if left <= 0:
                return True
            time.sleep(min(left, 0.02))

    def type(self, keys, rng):
        for n, k in enumerate(keys):
            if n:
                self.idle(rng.uniform(0.06, 0.16))
            if isinstance(k, tuple) and k[0] == "wait":
                self.idle(k[1])
                continue
            if isinstance(k, tuple):
                args = [TMUX_ARROWS[k[1]]]
            elif k in TMUX_KEYS:
                args = [TMUX_KEYS[k]]
            elif len(k) == 1 and ord(k) < 32:
                args = ["C-" + chr(ord(k) + 96)]
            else:
                args = ["-l", "--", k]
            subprocess.run(self.tmux + ["send-keys", "-t", self.target] + args, env=self.env, check=True)


def start_tmux(a, argv, env):
    """Starts argv in a pane of a private tmux server, its output copied to
    a file the person reads; returns (tmux command prefix, target, file)."""
    sock_dir = os.path.abspath(a.tmux_dir)
    os.makedirs(sock_dir, exist_ok=True)
    env["TMUX_TMPDIR"] = sock_dir
    env.pop("TMUX", None)
    name = "person%d" % os.getpid()
    tmux = ["tmux", "-L", name, "-f", "/dev/null"]
    out = os.path.join(sock_dir, name + ".out")
    go = os.path.join(sock_dir, name + ".go")
    open(out, "wb").close()
    # The pane waits for the copy to be in place before record starts, so
    # the person reads everything the program printed.
    shell = "while [ ! -e %s ]; do sleep 0.02; done; cd %s && exec %s" % (
        shlex.quote(go), shlex.quote(os.path.abspath(a.cwd)), " ".join(shlex.quote(x) for x in argv))
    subprocess.run(tmux + ["start-server", ";", "set-option", "-g", "default-terminal", "tmux-256color", ";",
                           "set-option", "-g", "status", "off", ";",
                           "new-session", "-d", "-s", "p", "-x", str(a.cols), "-y", str(a.rows), shell, ";",
                           "pipe-pane", "-t", "p", "-O", "cat >>" + shlex.quote(out)], env=env, check=True)
    open(go, "w").close()
    return tmux, "p", out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--yc", default="yume-cli", help="yume-cli binary")
    ap.add_argument("--cast", required=True, help="cast file to write (replaced)")
    ap.add_argument("--title", default="", help="title stored in the cast")
    ap.add_argument("--cwd", default=".", help="directory the program runs in")
    ap.add_argument("--home", help="HOME for the program (default: unchanged)")
    ap.add_argument("--env", action="append", default=[], metavar="K=V", help="extra environment")
    ap.add_argument("--cols", type=int, default=80)
    ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1, help="seed of the pauses")
    ap.add_argument("--timeout", type=float, default=20, help="seconds to wait for each question")
    ap.add_argument("--log", help="also write the raw terminal output here")
    ap.add_argument("--tmux", action="store_true", help="the person's terminal is a tmux pane")
    ap.add_argument("--tmux-dir", default=".wt/tmux", help="where the private tmux server keeps its socket")
    ap.add_argument("--step", nargs=2, action="append", default=[], metavar=("EXPECT", "KEYS"),
                    help="wait for EXPECT on the screen, then type KEYS")
    ap.add_argument("cmd", nargs="+", help="-- CMD ARGS…")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    steps = [(exp, parse_keys(keys)) for exp, keys in a.step]
    cast = os.path.abspath(a.cast)
    yc = os.path.abspath(a.yc) if os.sep in a.yc else a.yc
    env = dict(os.environ)
    env["TERM"] = "xterm-256color"  # the person's terminal (--env TERM=… overrides)
    if a.home:
        env["HOME"] = os.path.abspath(a.home)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    argv = [yc, "record", "--overwrite", "-o", cast]
    if a.title:
        argv += ["--title", a.title]
    argv += ["--"] + a.cmd

    log = open(a.log, "wb") if a.log else None
    if a.tmux:
        tmux, target, out = start_tmux(a, argv, env)
        term = TmuxTerminal(tmux, target, out, log, env)

        def stop():
            subprocess.run(tmux + ["kill-server"], env=env, stderr=subprocess.DEVNULL)

        def finish():
            return "the pane closed"
    else:
        pid, fd = pty.fork()
        if pid == 0:
            try:
                os.chdir(a.cwd)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))
        os.kill(pid, signal.SIGWINCH)
        term = Terminal(fd, log)

        def stop():
            os.kill(pid, signal.SIGTERM)

        def finish():
            _, status = os.waitpid(pid, 0)
            return "exited with %d" % os.waitstatus_to_exitcode(status)
    pos = 0
    for exp, keys in steps:
        end = term.wait_for(exp, pos, a.timeout)
        if end < 0:
            sys.stderr.write("person.py: %r did not show up; the output so far:\n%s\n" % (exp, term.text()[pos:]))
            stop()
            finish()
            return 2
        pos = end
        term.idle(rng.uniform(0.1, 0.3))  # reads the question
        term.type(keys, rng)
    deadline = time.monotonic() + a.timeout
    while term.pump(0.1) and time.monotonic() < deadline:
        pass
    if not term.eof:
        sys.stderr.write("person.py: the program did not exit; stopping it\n")
        stop()
    sys.stderr.write("person.py: %s %s\n" % (" ".join(a.cmd), finish()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
