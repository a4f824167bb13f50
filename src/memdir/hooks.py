"""Stable command path ``python -m memdir.hooks CLIENT EVENT`` (claude-code,
codex, gemini, cursor).

``memdir install CLIENT`` writes this command into the client's settings, so
it must not move when the code does. The hooks themselves are
:mod:`memdir.integrations.claude_code.hooks`.

``python -m memdir.hooks --warm HOME [--idle SECONDS]`` is the home's
standalone warm process (:func:`memdir.search.warm.main`, started by
:func:`memdir.search.warm.launch`), serving the prompt hooks themselves
(:func:`memdir.integrations.claude_code.hooks.answer_warm`): the search
package may not import the hooks, this entry point joins them.
"""

import sys

from memdir.integrations.claude_code.hooks import main

if __name__ == "__main__":
    if sys.argv[1:2] == ["--warm"]:
        from memdir.integrations.claude_code.hooks import answer_warm
        from memdir.search.warm.server import leave
        from memdir.search.warm.server import main as warm_main

        sys.exit(leave(warm_main(sys.argv[2:], hooks=answer_warm)))  # no teardown mid-load (SIGABRT)
    from memdir.integrations.claude_code.hooks import finish

    sys.exit(finish(main()))  # at once when a warm process answered (nothing of its own to close)
