"""``atril serve``: play Spanish Scrabble in the browser (Starlette, WebSockets, SQLite or
PostgreSQL). ``create_app`` builds the application; see ``app.py`` for the API."""
