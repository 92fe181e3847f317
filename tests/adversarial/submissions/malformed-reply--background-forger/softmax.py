"""A thread started at import writes a stray Answer every 20 ms for as long as the process lives."""
import threading
import time

from .forgery import answer, frame, hand_written_softmax, reply_fd, send

STRAY = frame(answer([]))


def _forge_for_ever(fd):
    while True:
        send(STRAY, fd)
        time.sleep(0.02)


threading.Thread(target=_forge_for_ever, args=(reply_fd(),), daemon=True).start()


def softmax(scores, dim=-1):
    time.sleep(0.1)  # let a stray frame reach the grader before the honest answer
    return hand_written_softmax(scores, dim)
