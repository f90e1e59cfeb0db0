"""errdex: map an error message back to the line of library source that raised it."""

__version__ = "0.1.0"
