"""One module per ``binaryon`` subcommand (see companion.cli.COMMANDS)."""
