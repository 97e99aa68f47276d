"""The ``tablier`` command line (click + rich): see :mod:`tablier.cli.main` and ``docs/cli.md``."""
