"""`plyground serve`: the browser workbench (play, coach, replay, live tournaments, results).

`play` holds the game sessions, `engine` runs every search in guarded worker processes, `pages`
renders HTML, `results` reads results folders and `app` wires the routes (Starlette).
"""
