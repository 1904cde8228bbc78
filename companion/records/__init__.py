"""Game records as plain text (docs/records.md): ``format`` (what a record holds and how it
is written), ``read`` (its text, one record or a file of many), ``check`` (every move
replayed, the result, the fingerprint, the import into the journal)."""
