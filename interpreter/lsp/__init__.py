"""`jux lsp`, the language server, kept apart as pygls keeps its transport, protocol and server:

- transport.py: frames in and out of stdin/stdout, bounded and guarded (broken frames answered);
- protocol.py: what a message must be before the server takes it (-32601, -32602);
- server.py: the server's handlers (open, change, hover, completion, ...);
- schedule.py: when each ruleset is checked (the edited one first, stale reports never published);
- reports.py: what a check finds, as `jux validate` reports it, kept by content;
- names.py: the names of the loaded files, for completion and hover; words.py: the language's words.
"""
