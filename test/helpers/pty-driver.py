"""A person at a terminal, for tests: runs a command under a pseudo-terminal (python3's pty
module), records every byte it draws, and presses Ctrl-C when the screen shows a pattern.

Faithful to: a real tty (isatty true on stdin/stdout/stderr, a window size, the line discipline
turning ^C into SIGINT for the foreground process group, ESC sequences passed through raw).
Leaves out: a terminal emulator (the transcript is the raw byte stream, not a rendered screen),
typing speed, and job control beyond ^C.

Usage: pty-driver.py SPEC_JSON
  SPEC_JSON: {"argv": [...], "env": {...}, "cwd": "...", "cols": 100, "rows": 30,
              "keys": [{"when": REGEX, "send": "\\u0003"}, ...], "limit_s": 60}
Each key is sent once, in order, when REGEX first matches the transcript (decoded as UTF-8) after
the previous key was sent. Prints one JSON line: {"status": exit code or 128+signal,
"transcript": text, "sent": number of keys sent}.
"""
import fcntl, json, os, pty, re, select, struct, sys, termios, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec.get("cwd", "."))
    os.execvpe(spec["argv"][0], spec["argv"], spec["env"])

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", spec.get("rows", 30), spec.get("cols", 100), 0, 0))
keys = spec.get("keys", [])
deadline = time.time() + spec.get("limit_s", 60)
out = b""
mark = 0  # a key's pattern is searched only in what was drawn after the previous key was sent
sent = 0
while True:
    if time.time() > deadline:
        os.kill(pid, 9)
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        out += chunk
    if sent < len(keys):
        text = out[mark:].decode("utf-8", "replace")
        if re.search(keys[sent]["when"], text):
            os.write(fd, keys[sent]["send"].encode())
            mark = len(out)
            sent += 1

_, st = os.waitpid(pid, 0)
status = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
print(json.dumps({"status": status, "transcript": out.decode("utf-8", "replace"), "sent": sent}))
