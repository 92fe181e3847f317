"""How many single-line mutants of the kit's correct styles are located at the mutated line.

    python benchmarks/locate_mutants.py [--limit N] [--seed S] [--styles all|old|new] [--show other-line,none]

Every correct style in tests/ (the reference, tests/submissions/correct, the passing modules of
tests/students) is mutated one line at a time (tests/mutants.py says how); each mutant that answers
wrong is traced and located. Prints the share located at the mutated line, at another line, told the
step without a line (the numbers could not choose between two), and not at all, of the wrong
(non-equivalent) mutants. The issue's target: at least 95% at the line, at most 2%
at another line.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import mutants  # noqa: E402  (tests/mutants.py, beside kit.py)
from attnkit.grading.session import make_oracle  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="grade a random sample of this many mutants (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--styles", choices=("all", "old", "new"), default="all",
                        help="old: the styles in tests/ the rules were tuned on; new: tests/styles alone")
    parser.add_argument("--show", default="other-line,step-only,none", help="verdicts whose mutants are listed")
    options = parser.parse_args()
    everything = [m for style in mutants.styles(options.styles) for m in mutants.mutants(style)]
    chosen = random.Random(options.seed).sample(everything, options.limit) if options.limit else everything
    oracle = make_oracle(mutants.COURSE)
    outcomes = []
    shown = set(options.show.split(","))
    with tempfile.TemporaryDirectory() as workdir:
        for mutant in chosen:
            outcome = mutants.judge(mutant, Path(workdir), oracle)
            outcomes.append(outcome)
            if outcome.verdict in shown:
                print(f"{outcome.verdict:10} {mutant.label}  => {outcome.located}", flush=True)
    report("all styles", outcomes)
    report("old styles", [o for o in outcomes if not held_out(o)])
    report("new styles (tests/styles)", [o for o in outcomes if held_out(o)])


def held_out(outcome: mutants.Outcome) -> bool:
    return outcome.mutant.style.name.startswith("styles/")


def report(label: str, outcomes: list[mutants.Outcome]) -> None:
    counts = collections.Counter(o.verdict for o in outcomes)
    wrong = sum(n for verdict, n in counts.items() if verdict != "equivalent")
    if not outcomes:
        return
    print(f"\n{label}: {len(outcomes)} mutants, {counts['equivalent']} equivalent, {wrong} wrong")
    for verdict in ("at-line", "other-line", "step-only", "none"):
        print(f"  {verdict:10} {counts[verdict]:4}  {100 * counts[verdict] / max(wrong, 1):5.1f}%")


if __name__ == "__main__":
    main()
