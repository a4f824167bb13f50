"""CJK words holding a negation character that deny nothing (fix52a)."""

import pytest

from memdir.consolidation.said import __all__ as said_all
from memdir.consolidation.takeback import negates


@pytest.mark.parametrize("text", ["没问题", "没关系", "无所谓", "非得用 pnpm", "不得不用 pnpm"])
def test_words_that_deny_nothing(text):
    assert negates(text) is False


def test_a_real_negation_still_negates():
    assert negates("我们不用 pnpm 了") is True


def test_said_exports_turn_number():
    assert "turn_number" in said_all
