"""Explain errors where they happen, instead of after a copy and paste.

Three hooks share one explainer and one plain-text rendering, so a traceback gets the same
answer wherever it is printed:

* ``excepthook``: ``sys.excepthook`` and ``threading.excepthook`` (``errdex.install()``),
  also switched on at interpreter start-up by ``errdex hook install`` (``pth``, ``startup``);
* ``ipython``: ``%load_ext errdex``;
* ``pytest_plugin``: ``pytest --errdex``.

``explainer`` turns an exception into text and never raises; ``render`` writes that text.
Nothing here imports the store or the matcher until an error actually needs explaining: the
hooks sit in processes that mostly never fail.
"""
