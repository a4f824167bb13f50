"""The ``memdir`` command: a thin translation onto the :class:`~memdir.Memory` facade.

``main`` (parsing, dispatch, error mapping and the hot-path ``context``),
``common`` (what every command module shares), and one module per group of
commands: ``memories``, ``search``, ``agents``, ``consolidation``, ``team``,
``panel``.
"""
