"""Names players choose (usernames, guild names): one normal form to store, one folded key to compare.

``clean_name`` is what is stored and shown: NFKC-normalised (fullwidth and other compatibility forms
become plain letters), without control, format (zero-width, bidi overrides), private-use or
unassigned characters, with runs of whitespace made one space and the ends trimmed; it must keep
at least one visible character (a letter, digit, punctuation or symbol).

``name_key`` is what uniqueness is decided on, so ``Lanternbearers`` cannot be copied with a
zero-width space, another case, an accent or a look-alike letter of another script: the clean name
case-folded, decomposed without its combining marks, and with the Cyrillic and Greek letters that
look like Latin ones replaced by those (``CONFUSABLES``: a table of look-alikes of Latin letters,
not Unicode's whole confusables list; docs/names.md).
"""
from __future__ import annotations

import re
import unicodedata

from backend.errors import InvalidInput

#: Categories removed from names: control, format, surrogate, private use, unassigned.
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: Categories of visible characters: letters, marks on them, digits, punctuation, symbols.
VISIBLE_PREFIXES = ("L", "N", "P", "S")

_SPACES = re.compile(r"\s+")

#: Case-folded look-alikes of Latin letters in other scripts -> the Latin letter.
CONFUSABLES: dict[str, str] = {
    # Cyrillic (lowercase forms, and the case-folded forms of capitals that look Latin: В Н К М Т)
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x",
    "с": "c", "ԁ": "d", "ԝ": "w", "ɡ": "g",
    # Greek: case-folded capitals that look Latin (Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ); where the small
    # letter looks like another Latin one (ν like v, υ like u, η like n), the capital wins: ALL-CAPS
    # copies are likelier
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j",
    # Latin letters that pass for others
    "ı": "i", "ɑ": "a", "ɩ": "i", "ʟ": "l",
}


def _visible(char: str) -> bool:
    return unicodedata.category(char).startswith(VISIBLE_PREFIXES)


def _visible_form(raw: str) -> str:
    # Whitespace (tabs and newlines are control characters) becomes one space before hidden characters go.
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw))
    text = "".join(char for char in text if unicodedata.category(char) not in HIDDEN)
    return _SPACES.sub(" ", text).strip()


def clean_name(raw: str, *, min_length: int = 1, max_length: int | None = None, field: str = "name") -> str:
    """The stored form of a chosen name, or 400 ``invalid_name`` naming what is wrong."""
    text = _visible_form(raw)
    if not any(_visible(char) for char in text):
        raise InvalidInput("invalid_name", f"The {field} needs at least one visible character.",
                           {"field": field})
    if len(text) < min_length or (max_length is not None and len(text) > max_length):
        raise InvalidInput("invalid_name",
                           f"The {field} must be {min_length} to {max_length} characters long.",
                           {"field": field, "min_length": min_length, "max_length": max_length})
    return text


def name_key(name: str) -> str:
    """The key two names collide on (see the module docstring); stable for a given name."""
    text = unicodedata.normalize("NFKD", _visible_form(name).casefold())
    text = "".join(CONFUSABLES.get(char, char) for char in text if not unicodedata.combining(char))
    return _SPACES.sub(" ", text).strip()
