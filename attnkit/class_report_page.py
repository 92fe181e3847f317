"""The class report's page, `report.html`: one self-contained file that needs nothing but a browser, offline.

The plots are inline SVG drawn here, the styles inline, no script. Every student id and every text
from a result goes through `escaping.html_text`.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING

from attnkit.escaping import html_text
from attnkit.reports import plural

if TYPE_CHECKING:  # the report's data is `class_report`'s, which writes this page
    from attnkit.class_report import ClassReport, ExerciseSummary, Mistake
    from attnkit.unexplained import UnexplainedGroup

NAMES_SHOWN = 60  # students named under one mistake before "and N more"

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 960px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ddd; }
.muted { color: #666; } svg { display: block; margin: 0.6em 0; } svg text { font: 12px system-ui, sans-serif; }
table { border-collapse: collapse; } td, th { padding: 0.25em 0.8em; text-align: left; border-bottom: 1px solid #eee; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.who { color: #333; font-size: 0.92em; }
"""
BAR, GOOD, MISTAKE_COLOUR, AXIS, TRACK = "#4c78a8", "#59a14f", "#e15759", "#888", "#eee"


def render_html(report: ClassReport) -> str:
    """The whole page: summary, score histogram, exercises, mistakes with who made them."""
    totals = [r.score for r in report.students]
    summary = (f"{report.counts.sentence()}; mean {statistics.fmean(totals):.2f} of {report.max_total:g}, "
               f"median {statistics.median(totals):g}" if totals else "No students graded yet.")
    parts = [f"<h1>{html_text(report.course)}: class report</h1>",
             f"<p class=muted>Lesson: {html_text(report.lesson)}. {summary}.</p>",
             "<h2>Scores</h2>", f"<p class=muted>Students by total score, out of {report.max_total:g}.</p>",
             histogram_svg(totals, report.max_total),
             "<h2>Exercises</h2>", exercises_svg(report.exercises), exercises_table(report.exercises),
             "<h2>Most common mistakes</h2>", top_mistakes_html(report),
             "<h2>Checks the class fails</h2>", checks_html(report),
             "<h2>Lowest scores</h2>", lowest_html(report)]
    parts += ["<h2>Mistakes by exercise</h2>"] + [exercise_mistakes_html(e, report) for e in report.exercises]
    parts += ["<h2>Mistakes nobody catalogued</h2>",
              "<p class=muted>Wrong answers no catalogued mistake explains, put together when the students' code "
              "computed the same numbers on this run's hidden inputs (within the check's tolerance): a group is "
              "a mistake to teach again, and to add to the catalogue (<code>attnkit catalogue draft</code>).</p>"]
    parts += [unexplained_html(e) for e in report.exercises]
    parts += ["<h2>Shared code</h2>", shared_code_html(report)]
    broken = [r for r in report.students if r.problem]
    if broken:
        parts += ["<h2>Not graded</h2>", "<ul>"]
        parts += [f"<li>{html_text(r.student)}: {html_text(r.problem)}</li>" for r in broken]
        parts += ["</ul>"]
    if report.duplicates:
        parts += ["<h2>Two or more submissions with one id</h2>", "<ul>"]
        parts += [f"<li>{html_text(student)}: graded {html_text(names[0])}, the most recently modified; not "
                  f"{html_text(', '.join(names[1:]))}</li>" for student, names in sorted(report.duplicates.items())]
        parts += ["</ul>"]
    body = "\n".join(parts)
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{html_text(report.course)}: class report</title><style>{STYLE}</style></head>\n"
            f"<body>\n{body}\n</body></html>\n")


def histogram_svg(totals: list[float], max_total: float) -> str:
    """Students per total score: a bar a whole point (a tenth of the range on long scales), from its low end."""
    width, height, left, bottom, top = 900, 220, 40, 30, 12
    step = 1.0 if max_total <= 40 else float(math.ceil(max_total / 10))
    bins = int(max_total // step) + 1
    counts = [0] * bins
    for total in totals:
        counts[min(bins - 1, int(total // step))] += 1
    tallest = max(counts, default=0) or 1
    slot = (width - left) / bins
    shapes = [_axis(left, height - bottom, width)]
    for index, count in enumerate(counts):
        bar = (height - bottom - top) * count / tallest
        x = left + index * slot
        label = f"{index * step:g}"
        shapes.append(f"<rect x={x + 2:.1f} y={height - bottom - bar:.1f} width={slot - 4:.1f} height={bar:.1f} "
                      f"fill='{BAR}'><title>{plural(count, 'student')} scored {label}</title></rect>")
        shapes.append(f"<text x={x + slot / 2:.1f} y={height - bottom + 16} text-anchor=middle>{label}</text>")
        if count:
            shapes.append(f"<text x={x + slot / 2:.1f} y={height - bottom - bar - 3:.1f} text-anchor=middle>"
                          f"{count}</text>")
    return _svg(width, height, "Students by total score", shapes)


def exercises_svg(exercises: list[ExerciseSummary]) -> str:
    """Each exercise's mean as a share of its points, and how many earned full marks."""
    bars = [Bar(e.id, e.mean / e.max_score if e.max_score else 0.0,
                f"mean {e.mean:.2f} / {e.max_score:g}; full marks: {e.full_marks} of {len(e.scores)}",
                f"mean {e.mean:.2f} of {e.max_score:g}") for e in exercises]
    return bars_svg(bars, "Mean score and full marks by exercise", GOOD, label_width=160)


def exercises_table(exercises: list[ExerciseSummary]) -> str:
    rows = "".join(f"<tr><td>{html_text(e.id)}</td><td>{html_text(e.title)}</td>"
                   f"<td class=num>{e.mean:.2f}</td><td class=num>{e.max_score:g}</td>"
                   f"<td class=num>{e.full_marks}</td><td class=num>{len(e.mistakes)}</td></tr>" for e in exercises)
    return ("<table><tr><th>exercise</th><th>title</th><th>mean</th><th>points</th><th>full marks</th>"
            f"<th>kinds of mistake</th></tr>{rows}</table>")


def top_mistakes_html(report: ClassReport, count: int = 10) -> str:
    top = report.top_mistakes(count)
    if not top:
        return "<p class=muted>No mistakes found.</p>"
    return mistakes_svg([(f"{report.meaning(m.id) or m.id} ({m.id})", m) for e, m in top], len(report.students))


def checks_html(report: ClassReport) -> str:
    """A bar a check: the share of the graded students who failed it, and the mistakes behind the failures."""
    failing = [c for c in report.checks if c.failed]
    if not failing:
        return "<p class=muted>Every check passed for every student.</p>"
    bars = [Bar(_short(f"{c.exercise}: {c.name}", 56), c.failure_rate, f"{c.failed} of {c.graded} failed",
                "; ".join(f"{m} ({n})" for m, n in c.mistakes)) for c in failing]
    rows = "".join(f"<tr><td>{html_text(c.exercise)}</td><td>{html_text(c.name)}</td>"
                   f"<td class=num>{c.failed} of {c.graded}</td><td>{_mistake_list(report, c.mistakes)}</td></tr>"
                   for c in failing)
    return (bars_svg(bars, "Share of the class failing each check", MISTAKE_COLOUR, label_width=420) +
            f"<table><tr><th>exercise</th><th>check</th><th>failed</th><th>because of</th></tr>{rows}</table>")


def lowest_html(report: ClassReport) -> str:
    """The lowest totals, for office hours: who, their score, and the first mistake in their work."""
    rows = "".join(f"<tr><td>{html_text(s.student)}</td><td class=num>{s.score:g} / {report.max_total:g}</td>"
                   f"<td>{html_text(s.exercise or '')}</td>"
                   f"<td>{_mistake(report, s.first_mistake) if s.first_mistake else ''}</td></tr>"
                   for s in report.lowest)
    return ("<table><tr><th>student</th><th>score</th><th>exercise</th><th>first mistake</th></tr>"
            f"{rows}</table>")


def _short(label: str, width: int) -> str:
    """A label that fits before its bar: cut at a word, with an ellipsis (the table below has it whole)."""
    return label if len(label) <= width else label[:width].rsplit(" ", 1)[0] + "…"


def _mistake(report: ClassReport, mistake: str) -> str:
    """A mistake id with its one-line meaning from the catalogue."""
    meaning = report.meaning(mistake)
    return f"<code>{html_text(mistake)}</code>" + (f" <span class=muted>{html_text(meaning)}</span>" if meaning else "")


def _mistake_list(report: ClassReport, mistakes: list[tuple[str, int]]) -> str:
    return "; ".join(f"{_mistake(report, m)} ({n})" for m, n in mistakes)


def exercise_mistakes_html(exercise: ExerciseSummary, report: ClassReport) -> str:
    """One exercise's mistakes, a row each: how many students made it, as a number and a bar, and who."""
    head = f"<h3>{html_text(exercise.id)}: {html_text(exercise.title)}</h3>"
    if not exercise.mistakes:
        return head + "<p class=muted>No mistakes found.</p>"
    size = len(exercise.scores)
    rows = "".join(f"<tr><td>{_mistake(report, m.id)}</td><td class=num>{m.count} of {size}</td>"
                   f"<td>{_small_bar(m.count / size if size else 0.0)}</td><td class=who>{_names(m.students)}</td></tr>"
                   for m in exercise.mistakes)
    return head + f"<table><tr><th>mistake</th><th colspan=2>students</th><th>who</th></tr>{rows}</table>"


def unexplained_html(exercise: ExerciseSummary) -> str:
    """One exercise's groups, largest first, a bar for their sizes; the students alone in a line after."""
    head = f"<h3>{html_text(exercise.id)}: {html_text(exercise.title)}</h3>"
    groups, alone = exercise.unexplained_groups, exercise.unexplained_alone
    if not exercise.unexplained:
        return head + "<p class=muted>Every wrong answer is explained by a catalogued mistake.</p>"
    size = len(exercise.scores)
    located = any(g.step for g in groups)  # the step and line columns, where the feedback locates
    rows = "".join(
        f"<tr><td class=num>{index}</td><td class=num>{g.size} of {size}</td>"
        f"<td>{_small_bar(g.size / size if size else 0.0)}</td>"
        f"<td>{html_text(', '.join(g.checks), 300)}</td>"
        + (f"<td>{html_text(g.step or '')}</td><td>{_located(g)}</td>" if located else "")
        + f"<td class=who>{_names(g.students)}</td></tr>"
        for index, g in enumerate(groups, 1))
    where = "<th>first wrong step</th><th>a representative's line</th>" if located else ""
    table = (f"<table><tr><th>group</th><th colspan=2>students</th><th>checks failed</th>{where}"
             f"<th>who</th></tr>{rows}</table>") if groups else ""
    single = (f"<p class=who>Alone in what they computed ({len(alone)}): "
              f"{_names([g.students[0] for g in alone])}</p>") if alone else ""
    return head + table + single


def shared_code_html(report: ClassReport) -> str:
    """The groups of submissions with one exercise's code the same but for comments, layout and local names."""
    if not report.shared_code:
        return "<p class=muted>No two submissions share their code of an exercise (or the course turns this off).</p>"
    rows = "".join(f"<tr><td>{html_text(g.exercise)}</td><td class=num>{len(g.students)}</td>"
                   f"<td class=who>{_names(g.students)}</td></tr>" for g in report.shared_code)
    return ("<p class=muted>The same code once comments, formatting and local names are set aside (the stub's "
            "and the lesson's own code do not count). Something to look at, not a verdict; students never see "
            f"this.</p><table><tr><th>exercise</th><th>students</th><th>who</th></tr>{rows}</table>")


def _located(group: UnexplainedGroup) -> str:
    located = group.located or {}
    line, code = located.get("line"), located.get("code")
    if not isinstance(code, str):
        return ""
    where = f"{html_text(str(located.get('file', '')))}:{html_text(str(line))} " if line is not None else ""
    return f"{where}<code>{html_text(code, 200)}</code>"


def _small_bar(share: float) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width=120 height=12 role=img aria-label='{share:.0%}'>"
            f"<rect width=120 height=12 fill='{TRACK}'/><rect width={120 * share:.1f} height=12 "
            f"fill='{MISTAKE_COLOUR}'/></svg>")


def mistakes_svg(rows: list[tuple[str, Mistake]], class_size: int) -> str:
    """A bar a mistake: the share of the class who made it."""
    bars = [Bar(label, mistake.count / class_size if class_size else 0.0, f"{mistake.count} of {class_size}",
                ", ".join(mistake.students)) for label, mistake in rows]
    return bars_svg(bars, "Students who made each mistake", MISTAKE_COLOUR, label_width=330)


@dataclass(frozen=True)
class Bar:
    """One row of a bar chart: its label, how full the bar is (0 to 1), the words after it, its tooltip."""

    label: str
    share: float
    caption: str
    tooltip: str


def bars_svg(bars: list[Bar], title: str, colour: str, *, label_width: int) -> str:
    """Horizontal bars on a light track, a row each; every text escaped."""
    row, width = 28, 900
    scale = width - label_width - 250
    shapes = []
    for index, bar in enumerate(bars):
        y = index * row + 4
        shapes += [f"<text x=0 y={y + 15}>{html_text(bar.label, 60)}</text>",
                   f"<rect x={label_width} y={y} width={scale} height=20 fill='{TRACK}'/>",
                   f"<rect x={label_width} y={y} width={scale * min(bar.share, 1.0):.1f} height=20 fill='{colour}'>"
                   f"<title>{html_text(bar.tooltip, 2000)}</title></rect>",
                   f"<text x={label_width + scale + 8} y={y + 15}>{html_text(bar.caption)}</text>"]
    return _svg(width, row * len(bars) + 8, title, shapes)


def _names(students: list[str]) -> str:
    shown = ", ".join(html_text(s) for s in students[:NAMES_SHOWN])
    more = len(students) - NAMES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _axis(left: int, y: int, width: int) -> str:
    return f"<line x1={left} y1={y} x2={width} y2={y} stroke='{AXIS}'/>"


def _svg(width: int, height: int, title: str, shapes: list[str]) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='100%' "
            f"role=img aria-label='{title}'><title>{title}</title>{''.join(shapes)}</svg>")
