"""``python -m experiments --out DIR [--quick] [--only KEY,KEY]``: see experiments.command."""

import sys

from .command import main

sys.exit(main())
