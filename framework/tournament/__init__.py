"""The tournament runner: config, scheduler, executors, results store and tables (see DESIGN.md)."""
