"""The mistake ids the engine names itself, whatever the course (docs/contract.md): one constant per id.

Every catalogue must give them words (`catalogue.load_catalogue` refuses one that does not). The sandbox's
failure statuses (`sandbox.protocol.FAILURE_STATUSES`) are five of them, spelt alike.
"""
from __future__ import annotations

NOT_IMPLEMENTED = "not-implemented"  # the stub still raises NotImplementedError, or the module is missing
CRASH = "crash"                      # the code raised
TIMEOUT = "timeout"                  # a call, or the submission's time budget, ran out of time
EXITED = "exited"                    # the student's process ended (exit, a signal, its memory limit)
MALFORMED_REPLY = "malformed-reply"  # a reply that cannot be trusted, or a grader that could not read one
WRONG_SHAPE = "wrong-shape"
WRONG_TYPE = "wrong-type"
NOT_FINITE = "not-finite"
MUTATES_INPUT = "mutates-input"
HARD_CODED = "hard-coded"
WRONG_VALUES = "wrong-values"

ENGINE_IDS = (NOT_IMPLEMENTED, CRASH, TIMEOUT, EXITED, MALFORMED_REPLY, WRONG_SHAPE, WRONG_TYPE, NOT_FINITE,
              MUTATES_INPUT, HARD_CODED, WRONG_VALUES)
# What no mistake model explained: a finding naming only these (or a crash) is "unexplained".
GENERIC_IDS = frozenset({WRONG_VALUES, WRONG_SHAPE, NOT_FINITE, HARD_CODED, CRASH})
