"""Analysis of stored results: ratings, pair statistics, standings, plots and reports."""
