"""A crash report whose message is 40 MB of Markdown and HTML."""
from .forgery import forge, hand_written_softmax


def softmax(scores, dim=-1):
    message = "<script>alert(1)</script> # heading\n" * ((40 << 20) // 36)
    forge({"status": "crash", "error": {"type": "RuntimeError", "message": message, "where": ""}})
    return hand_written_softmax(scores, dim)
