"""What a mistake's code looks like, found in a submission's source: read in the grader, never run.

Some mistakes show in the numbers only as a crash, and another mistake's code may crash the same way
(a numpy max that drops its kept dimension fails on batches as a 2-D-only transpose does). A crash alone is
then too little to name either; where the catalogue says what the mistake's code looks like (`evidence`,
regular expressions), the source decides. Each module is parsed and printed back by `ast` first, so
comments, strings of layout, spacing and line breaks do not matter: `K.transpose( 0,1 )` reads as
`K.transpose(0, 1)`. A module that does not parse shows nothing.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from attnkit.grading.catalogue import Mistake


@lru_cache(maxsize=16)  # a student's modules, each read for every exercise that builds on it
def normalised(source: bytes) -> str:
    """The module's code as `ast` prints it back (no comments, one layout), or "" if it does not parse."""
    try:
        return ast.unparse(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError):
        return ""


def evident(mistakes: Iterable[Mistake], sources: Mapping[str, bytes]) -> dict[str, str]:
    """Mistake id -> "file: the code that shows it", for each mistake whose evidence one of the sources holds."""
    code = {name: normalised(text) for name, text in sources.items()}
    found: dict[str, str] = {}
    for mistake in mistakes:
        for pattern in mistake.evidence:
            hit = next(((name, m) for name, text in code.items() if (m := re.search(pattern, text))), None)
            if hit is not None:
                found[mistake.id] = f"{hit[0]}: `{_line_of(code[hit[0]], hit[1])}`"
                break
    return found


def _line_of(text: str, match: re.Match[str]) -> str:
    """The printed-back line holding the match, shortened for a sentence."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    line = text[start:end if end >= 0 else len(text)].strip()
    return line if len(line) <= 80 else line[:77] + "..."
