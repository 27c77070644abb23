"""Engines: every participant plays from a process of its own, over a small versioned protocol.

`protocol` defines the messages (one JSON object per line, bounded); `host` is the engine that runs a Python
agent plugin and speaks the protocol for its author; `sandbox` starts an engine's process confined (own
session, process and memory limits, Landlock); `client` is the referee's side of one engine: it spawns it,
waits for it to be ready, asks it for moves and measures its time itself. See docs/guide/engine-protocol.md.
"""
