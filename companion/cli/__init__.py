"""One module per ``binaryon`` subcommand (see companion.cli.main.COMMANDS)."""
