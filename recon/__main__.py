"""Run the command line as `python -m recon`."""

from .cli import main

raise SystemExit(main())
