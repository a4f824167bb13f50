"""Pure rules on text: what may be printed or injected, fence escaping, redaction, names, words.

``printable`` (no control or bidi-override character; one-line fields),
``fence`` (stored text cannot close the fence it is injected in), ``redact``
(secrets out before anything is stored), ``fold`` (which letters a person
types alike: names and search terms), ``names`` (the kebab-case name a
memory is addressed by), ``words`` (the one list of function words and
negations every matcher uses), ``lookalike`` (letters drawn like letters of
another script, read as the letters they imitate: tombstones and fences).

May import: the standard library and the base modules (``errors``,
``vocabulary``). Nothing here touches a file.

Must not import: any other memdir package, not even for type hints.
"""
