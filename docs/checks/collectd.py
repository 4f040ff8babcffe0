"""A stand-in for collectd's Python API (the `collectd` module its plugins import), so that
graphs1090's collector (wiedehopf/graphs1090, dump1090.py, not part of FlyTracker) can be run
by hand against FlyTracker's JSON files. It records what the collector dispatches and prints
one line per value: TYPE INSTANCE VALUES. See docs/CHECKS.md."""

import sys

_reads = []
_configs = []


class Values:
    def __init__(self, **kwargs):
        self.defaults = kwargs

    def dispatch(self, **kwargs):
        merged = dict(self.defaults)
        merged.update(kwargs)
        print(merged.get("type"), merged.get("type_instance"), merged.get("values"))


def register_read(callback, data=None, name=None, interval=None):
    _reads.append((callback, data))


def register_config(callback, name=None):
    _configs.append(callback)


def warning(message):
    print("warning:", message, file=sys.stderr)


def error(message):
    print("error:", message, file=sys.stderr)


class _Node:
    def __init__(self, key, values, children=()):
        self.key = key
        self.values = values
        self.children = list(children)


def run(url):
    """Configures the collector with one instance reading URL (…/data/*.json) and reads once."""
    root = _Node("Module", [], [_Node("Instance", ["localhost"], [_Node("URL", [url])])])
    for configure in _configs:
        configure(root)
    for callback, data in _reads:
        callback(data)
