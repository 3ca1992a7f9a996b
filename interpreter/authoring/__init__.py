"""Help for authors: scenarios and their runner (`jux test`), and the language server (`jux lsp`)."""
