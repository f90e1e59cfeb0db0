"""Match a pasted error back to the records that could have raised it."""
