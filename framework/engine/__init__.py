"""Engines: every participant plays from a process of its own, over a small versioned protocol.

`protocol` defines the messages (one JSON object per line, bounded); `host` is the engine that runs a Python
agent plugin and speaks the protocol for its author; `sandbox` starts an engine's process confined (own
session, process and memory limits, Landlock); `forkserver` forks engine hosts from one process that has
imported what they import, each confined by `sandbox`'s code; `client` is the referee's side of one engine: it
starts it, waits for it to be ready, asks it for moves and measures its time itself. See
docs/guide/engine-protocol.md.
"""
