"""Connects to HOST PORT and writes everything received to FILE for SECONDS (docs/CHECKS.md).

usage: tcp_collect.py HOST PORT FILE SECONDS"""

import socket
import sys
import time

host, port, path, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
end = time.time() + seconds
with socket.create_connection((host, port)) as s, open(path, "wb") as out:
    s.settimeout(0.2)
    while time.time() < end:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        out.write(data)
