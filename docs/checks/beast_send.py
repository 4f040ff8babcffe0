"""Sends AVR lines with timestamps (`@TTTTTTTTTTTTHEX;`, as `flytracker run --raw --timestamps`
prints them) to a Beast input as Beast frames, at a steady pace, after waiting `delay`
seconds. Used by the hub check in docs/CHECKS.md.

usage: beast_send.py FILE HOST PORT [DELAY] [FRAMES_PER_SECOND]"""

import socket
import sys
import time


def beast(line):
    line = line.strip()
    if not (line.startswith("@") and line.endswith(";")):
        return None
    timestamp = bytes.fromhex(line[1:13])
    data = bytes.fromhex(line[13:-1])
    kind = {7: b"\x32", 14: b"\x33"}.get(len(data))
    if kind is None:
        return None
    body = timestamp + b"\x80" + data
    return b"\x1a" + kind + body.replace(b"\x1a", b"\x1a\x1a")


def main():
    path, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    delay = float(sys.argv[4]) if len(sys.argv) > 4 else 2
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 500
    frames = [f for f in (beast(l) for l in open(path)) if f]
    time.sleep(delay)
    with socket.create_connection((host, port)) as s:
        for f in frames:
            s.sendall(f)
            time.sleep(1 / rate)
        time.sleep(1)
    print(len(frames), "frames sent", file=sys.stderr)


main()
