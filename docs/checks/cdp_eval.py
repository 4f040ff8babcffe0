"""Opens URL in a headless Chromium (remote debugging on PORT), waits SECONDS, evaluates
EXPRESSION in the page (again each second while the page cannot answer yet) and prints the result (docs/CHECKS.md). Needs websocket-client (PyPI).

usage: cdp_eval.py PORT URL SECONDS EXPRESSION"""

import json
import sys
import time
import urllib.request

import websocket

port, url, seconds, expression = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
deadline = time.time() + 20
while True:
    try:
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
        page = next(t for t in targets if t.get("type") == "page")
        break
    except Exception:
        if time.time() > deadline:
            raise
        time.sleep(0.3)
ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
counter = 0


def call(method, **params):
    global counter
    counter += 1
    ws.send(json.dumps({"id": counter, "method": method, "params": params}))
    while True:
        message = json.loads(ws.recv())
        if message.get("id") == counter:
            return message


call("Page.enable")
call("Page.navigate", url=url)
time.sleep(seconds)
# The page may still be loading its scripts: evaluate until it answers (30 s at most).
for attempt in range(30):
    result = call("Runtime.evaluate", expression=expression, returnByValue=True).get("result", {})
    if "exceptionDetails" not in result:
        break
    time.sleep(1)
print(result.get("result", {}).get("value", result))
