"""The verdict of one statement of the paper: a word from a fixed vocabulary, its scope, and the evidence."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import pandas as pd

SHORT_LINE = 160
"""The longest line ``amoeboid paper`` prints for one item (item, word and brief)."""

VERDICTS = ("confirmed", "confirmed with a correction", "false as stated", "not supported", "open")
"""The words a verdict may use.

- confirmed: the statement holds (a proof, an exact computation, or an exhaustive search that covers the claim).
- confirmed with a correction: it fails in some case its words cover, but holds in every case the paper itself
  applies it to; the verdict names the correction (:data:`WORD_RULE`, :func:`judged`).
- false as stated: it fails in a case the paper itself applies it to (:data:`WORD_RULE`): a counterexample in
  which every move of the claimant's side follows the paper's text (or a
  paper-silent default the verdict names); it carries a replayable counter-line.  A claim that the claimant *can*
  secure something ("A can win", "by moving to the center ... the opponent cannot win") leaves the choices the text
  does not make to the claimant: its counterexample must beat every way of playing that the text allows.
- not supported: the evidence does not bear the claim out, but there is no counterexample to the paper's plan.
- open: undecided within the stated search bounds.

The word is always decided by an argument that does not move with sample sizes (a proof, an exact computation, an
exhaustive search); simulations only add numbers with intervals.
"""


WORD_RULE = ("one rule tells 'confirmed', 'confirmed with a correction' and 'false as stated' apart: the statement is "
             "read over every case its words cover; confirmed if it holds in all of them; if it fails in some but "
             "holds in every case the paper itself applies it to (its own example, proof or plan), confirmed with a "
             "correction, the correction naming the words that confine it; if it fails in a case the paper itself "
             "applies it to, false as stated, with that case as the counter-line")
"""The rule behind three of the words, said on the cards it decides."""


WORD_CLAUSES = {
    "confirmed": "the rule's first clause: it holds in every case its words cover",
    "confirmed with a correction": ("the rule's second clause: it fails in some case its words cover, but holds in "
                                    "every case the paper itself applies it to"),
    "false as stated": "the rule's third clause: it fails in a case the paper itself applies it to (the counter-line)",
    "not supported": ("no clause of the rule is met: nothing shows it holds in every case, the evidence does not bear "
                      "it out, and no case the paper applies it to is known to fail"),
    "open": ("no clause of the rule is met: nothing shows it holds in every case, and no case the paper applies it to "
             "is known to fail, within the searches stated"),
}
"""Which clause of :data:`WORD_RULE` gives each word: every card says it (:attr:`Verdict.clause`)."""


def judged(holds_in_every_case: bool | None, holds_where_the_paper_applies_it: bool | None,
           evidence_bears_it: bool = True) -> str:  # fmt: skip
    """The word :data:`WORD_RULE` gives, for every item: each fact is True (shown), False (refuted) or None (not
    decided by the exact computations and searches stated).

    A failure where the paper applies the statement gives ``false as stated``; a statement shown to hold in every
    case ``confirmed``; one that fails somewhere but is shown to hold wherever the paper applies it ``confirmed with
    a correction``; anything else is undecided: ``open``, or ``not supported`` when the evidence does not bear it out.
    """
    if holds_where_the_paper_applies_it is False:
        return "false as stated"
    if holds_in_every_case is True:
        return "confirmed"
    if holds_in_every_case is False and holds_where_the_paper_applies_it is True:
        return "confirmed with a correction"
    return "open" if evidence_bears_it else "not supported"


@dataclass(frozen=True, eq=False)
class Verdict:
    """What the computation says about one statement of the paper.

    ``brief`` is the one short sentence of the card (what ``amoeboid paper``
    prints beside the word, at most :data:`SHORT_LINE` characters with the item
    and the word) and ``reach`` its short scope: a lesson shows the word, the
    brief and the reach, and the rest one click away (:meth:`details`, the
    folded part of the card).  ``plain`` is the longer plain-language answer;
    ``scope`` says in full what was checked (boards, opponents, depths,
    samples); ``summary`` is the evidence in one line; ``explanation`` the
    paragraph behind it; ``counter_line`` a game record (the spec's notation,
    annotated) for every "false as stated".
    """

    item: str
    verdict: str
    summary: str
    explanation: str
    evidence: pd.DataFrame = field(repr=False)
    scope: str = ""
    plain: str = ""
    counter_line: str = ""
    quote: str = ""
    brief: str = ""
    reach: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {self.verdict!r}")
        if self.verdict == "false as stated" and not self.counter_line:
            raise ValueError("a 'false as stated' verdict carries a counter-line")

    @property
    def clause(self) -> str:
        """Which clause of :data:`WORD_RULE` decided the word (:data:`WORD_CLAUSES`)."""
        return WORD_CLAUSES[self.verdict]

    @property
    def line(self) -> str:
        """``ITEM: VERDICT — evidence [scope: ...]``: the card in one line (``str``); the CLI prints :attr:`short`."""
        scope = f" [scope: {self.scope}]" if self.scope else ""
        return f"{self.item}: {self.verdict} — {self.summary}{scope}"

    @property
    def short(self) -> str:
        """``ITEM: VERDICT — brief``: one line of ``amoeboid paper``, at most :data:`SHORT_LINE` characters."""
        return f"{self.item}: {self.verdict} — {self.brief or self.plain or self.summary}"

    def details(self) -> str:
        """Everything behind the card, in titled sections: what ``amoeboid paper ITEM`` prints."""
        sections = [
            (f"{self.item}: {self.verdict}", self.brief or self.plain),
            ("The paper says", f"“{self.quote}”" if self.quote else ""),
            ("Why this word", f"{self.verdict}: {self.clause}. The rule: {WORD_RULE}."),
            ("In plain words", self.plain if self.brief and self.plain != self.brief else ""),
            ("Scope", self.scope),
            ("Evidence", self.summary),
            ("How it was checked", self.explanation),
            ("Counter-line (replay it with `amoeboid replay`)", self.counter_line),
        ]
        return "\n\n".join(f"## {title}\n{text.strip()}" for title, text in sections if text)

    def __str__(self) -> str:
        return self.line

    def _repr_markdown_(self) -> str:
        reach = self.reach or self.scope
        return (f"**{self.item}: {self.verdict}** — {self.brief or self.plain or self.summary}\n\n*Scope:* {reach}\n\n"
                f"*Why this word:* {self.clause}.\n\n(`.details()` gives the evidence, the full scope and the explanation.)\n")

    def _repr_html_(self) -> str:
        esc = html.escape
        table = self.evidence.to_html(index=False, max_rows=12, float_format=lambda x: f"{x:.4g}")
        counter = (f"<p>Counter-line (replay it with <code>amoeboid replay</code>):</p><pre>{esc(self.counter_line)}</pre>"
                   if self.counter_line else "")  # fmt: skip
        quote = f"<p><i>The paper:</i> “{esc(self.quote)}”</p>" if self.quote else ""
        # the plain sentence first (a student reads the word and what it means), the CLI's short line folded with the rest
        short = f"<p><i>In short:</i> {esc(self.brief)}</p>" if self.brief and self.plain and self.plain != self.brief else ""
        full_scope = f"<p><i>Full scope:</i> {esc(self.scope)}</p>" if self.reach and self.scope != self.reach else ""
        return (
            f"<div class='verdict'><p><b>{esc(self.item)}: {esc(self.verdict)}</b> — "
            f"{esc(self.plain or self.brief or self.summary)}</p><p><i>Scope:</i> {esc(self.reach or self.scope)}</p>"
            f"<p><i>Why this word:</i> {esc(self.clause)}.</p>"
            f"<details><summary>For the curious: how this was checked</summary>{quote}{short}{full_scope}"
            f"<p>{esc(self.summary)}</p><p>{esc(self.explanation)}</p>{counter}{table}</details></div>"
        )
