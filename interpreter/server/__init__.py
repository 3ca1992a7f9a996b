"""The game server for remote play (`jux serve`): the wire protocol (protocol.py), tables in SQLite
(store.py), tables and their seats (tables.py), the websockets server (app.py) and a small client
for the commands that talk to a server (client.py). docs/protocol.md describes the protocol."""
