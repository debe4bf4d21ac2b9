# Runs a command with its stderr on a pseudo-terminal, as a user's terminal
# would be, and writes the bytes it drew there to a file.
# Usage: pty_run.py COLUMNS OUT COMMAND...   (COLUMNS 0: the terminal reports
# no size, so the command falls back to $COLUMNS)
import fcntl
import os
import pty
import struct
import sys
import termios
import tty

columns, out, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
tty.setraw(slave)  # the bytes as written: no "\n" made "\r\n"
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
pid = os.fork()
if pid == 0:
    os.close(master)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(slave, 2)
    os.execvp(command[0], command)
os.close(slave)
drawn = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the command has closed the terminal
        break
    if not chunk:
        break
    drawn += chunk
_, status = os.waitpid(pid, 0)
with open(out, "wb") as f:
    f.write(drawn)
sys.exit(os.waitstatus_to_exitcode(status))
