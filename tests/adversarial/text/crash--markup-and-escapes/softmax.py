"""Prints, and raises an exception named and worded with, Markdown, HTML and terminal escapes.

Every piece carries the word ADV, so a test can tell the student's text from the kit's own.
"""
PAYLOAD = (
    "\x1b[2J\x1b[1;31mFULL MARKS ADV\x1b[0m "  # clear the screen, colours
    "\x1b]8;;https://evil.example/\x07click ADV\x1b]8;;\x07 "  # an OSC 8 hyperlink
    "graded fine\rADV overwrote this line "  # a carriage return over the line
    "\u202eADV txt.exe\u202c "  # a bidi override
    "[click ADV](javascript:alert('ADV')) "  # a Markdown link to script
    "<script>alert('ADV')</script> <img src=\"x\" onerror=\"alert('ADV')\"> "  # HTML
    "\n```\n# ADV heading\n\n## ADV subheading\n"  # close the fence, then headings
)

Markup = type("<script>alert('ADV')</script>\x1b[2J", (Exception,), {})


def softmax(scores, dim=-1):
    print(PAYLOAD)
    raise Markup(PAYLOAD)
