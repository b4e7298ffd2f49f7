"""Small helpers for the English the app writes about ships, sides and men: pure, no framework (the rules, the
narration, the decision forms and the notifications share them, so a rule of grammar is stated once).

- ``possessive``: "the Gull's", but "the Defenders'" and "the boarders'" (a name ending in s takes the
  apostrophe alone, never "defenders's").
- ``and_list``: "A", "A and B", "A, B and C"; empty items are left out (never "Waiting for A, .").
- ``capfirst``: a capital first letter and nothing else touched ("sky Runner" -> "Sky Runner"), where Python's
  ``str.capitalize`` would lower-case the rest ("Attack the sky runner").
- ``without_article``: a name typed with its article ("The Gull") kept without it, as the pages say "the Gull".
- ``mid_sentence``: a name with its article as it reads inside a sentence ("then the black pirates"), where a
  side's name typed to open a heading ("The black pirates") would keep its capital.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_ARTICLE = re.compile(r"^the\s+", re.IGNORECASE)


def possessive(name: object) -> str:
    name = str(name)
    last = name.split()[-1] if name.split() else name
    # A word ending in s takes the apostrophe alone; a letter standing for a ship ("S") is "S's".
    return f"{name}'" if len(last) > 1 and last.endswith(("s", "S")) else f"{name}'s"


def and_list(items: Iterable[object], *, last: str = "and") -> str:
    words = [str(item) for item in items if item is not None and str(item).strip()]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def capfirst(text: object) -> str:
    text = str(text)
    return text[:1].upper() + text[1:]


def without_article(name: str) -> str:
    """ "The Gull" -> "Gull"; a name that is only the article ("The") is left alone."""
    stripped = _ARTICLE.sub("", name.strip(), count=1).strip()
    return stripped or name.strip()


def mid_sentence(name: str) -> str:
    """ "The black pirates" -> "the black pirates"; any other name as typed."""
    stripped = name.strip()
    return "the" + stripped[3:] if _ARTICLE.match(stripped) and stripped[:3] == "The" else stripped
