"""``memdir panel``: a web page on 127.0.0.1 where a person reviews, corrects and audits memory.

``app`` (the Starlette app and serving it), ``security`` (who may talk to
it), ``home`` (the layers of the home, one session per project), ``views``
(what each page and route asks and changes), ``pages`` (the HTML pages),
``api`` (the JSON API and its OpenAPI schema); ``templates/``, ``static/``.
"""
