"""``python -m memdir``: the same as the ``memdir`` command."""

import sys

from memdir.integrations.cli.main import main

sys.exit(main())
