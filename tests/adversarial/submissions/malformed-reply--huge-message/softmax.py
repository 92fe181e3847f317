"""A Failure whose message is 40 MB of Markdown and HTML: over the frame limit."""
from .forgery import failure, forge, hand_written_softmax


def softmax(scores, dim=-1):
    forge(failure(message="<script>alert(1)</script> # heading\n" * ((40 << 20) // 36)))
    return hand_written_softmax(scores, dim)
