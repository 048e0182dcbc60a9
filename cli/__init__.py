"""The command line: `photosolve PHOTO` and its subcommands."""
