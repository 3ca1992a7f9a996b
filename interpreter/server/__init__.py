"""The game server for remote play (`jux serve`): the wire protocol (protocol.py), tables in SQLite
(store.py), tables and their seats (tables.py), what a seat and the spectators are sent
(messages.py, public.py), making a table (making.py), one connection (connection.py), the
server's limits (limits.py), the websockets server (app.py) and a small client for the commands
that talk to a server (client.py). docs/protocol.md describes the protocol."""
