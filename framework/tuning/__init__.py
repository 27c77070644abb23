"""Tuning: SPSA over an agent's (or its heuristic's) numeric parameters, on the tournament runner (`mode: tune`)."""
