"""Values in error messages, as the C++ side quotes them (ubot::quote_value, docs/hostile-input.md):
a user's value may be megabytes long (a 200 MB name), a message stays a few lines."""

QUOTED_CHARACTERS = 64


def quote(value):
    """``repr(value)``, or for a long one its first characters and its length:
    ``'kkkk...' (25000000 characters)``, the shape of the CLI's ``(N bytes)``."""
    if isinstance(value, str):
        if len(value) <= QUOTED_CHARACTERS:
            return repr(value)
        return f"{value[:QUOTED_CHARACTERS] + '...'!r} ({len(value)} characters)"
    text = repr(value)
    if len(text) <= QUOTED_CHARACTERS + 2:
        return text
    return f"{text[:QUOTED_CHARACTERS]}... ({len(text)} characters of repr)"
