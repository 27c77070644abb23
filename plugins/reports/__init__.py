"""Reproductions of published results: reports that know particular games and agents by name.

They live here, outside `framework/` (which names no built-in), and run as scripts over a results
folder, e.g. `python -m plugins.reports.thesis results/thesis`.
"""
