"""The verdict rules: how a number of ours is judged against a published one.

- a number k of basis vectors or dimensions is *reproduced* within
  ``K_REPRODUCED`` = 3 of the published k, *close* within ``K_CLOSE`` = 10;
- a value (bound, error rate, count, ratio) is *reproduced* within
  ``REL_REPRODUCED`` = 5 % of the published value, *close* within
  ``REL_CLOSE`` = 20 %;
- a qualitative claim is *reproduced* when it holds in our run;
- anything else *differs*; an experiment's verdict is its worst check.

Each published claim becomes a :class:`Check` with its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["VERDICTS", "K_REPRODUCED", "K_CLOSE", "REL_REPRODUCED", "REL_CLOSE", "REL_ROUNDING",
           "VERDICT_RULES", "verdict_k", "verdict_value", "verdict_claim", "worst", "Check",
           "check_k", "check_value", "check_claim"]

#: Verdicts, best first.
VERDICTS = ("reproduced", "close", "differs")
#: A number k of basis vectors is reproduced within +-K_REPRODUCED of the published one,
#: close within +-K_CLOSE.
K_REPRODUCED = 3
K_CLOSE = 10
#: A value is reproduced within REL_REPRODUCED (relative) of the published one, close
#: within REL_CLOSE.
REL_REPRODUCED = 0.05
REL_CLOSE = 0.20
#: Relative slack on those limits, so that a value exactly 5 % away is "reproduced"
#: however its ratio rounds in floating point.
REL_ROUNDING = 1e-9
#: Plain-language statement of the rules (the page and summary.md show it).
VERDICT_RULES = (
    f"A number k of basis vectors or dimensions is **reproduced** if ours is within "
    f"±{K_REPRODUCED} of the published k, **close** within ±{K_CLOSE}. A value (a bound, an "
    f"error rate, a count, a ratio) is **reproduced** within {REL_REPRODUCED:.0%} of the "
    f"published value (relative), **close** within {REL_CLOSE:.0%}. A qualitative claim (a "
    "curve falls, a method separates the data) is **reproduced** if it holds in our run. "
    "Anything else **differs**. An experiment's verdict is the worst of its checks."
)


def verdict_k(ours, published):
    """Verdict for a number of basis vectors: |ours - published| <= 3 / 10."""
    gap = abs(int(ours) - int(published))
    if gap <= K_REPRODUCED:
        return "reproduced"
    return "close" if gap <= K_CLOSE else "differs"


def verdict_value(ours, published):
    """Verdict for a value: relative gap <= 5 % / 20 % of the published value."""
    ours, published = float(ours), float(published)
    if not np.isfinite(ours):
        return "differs"
    rel = abs(ours - published) / abs(published) if published else abs(ours)
    if rel <= REL_REPRODUCED + REL_ROUNDING:
        return "reproduced"
    return "close" if rel <= REL_CLOSE + REL_ROUNDING else "differs"


def verdict_claim(holds):
    """Verdict for a qualitative claim."""
    return "reproduced" if bool(holds) else "differs"


def worst(verdicts):
    """The worst of several verdicts ("reproduced" for none)."""
    return max(verdicts, key=VERDICTS.index, default="reproduced")



@dataclass(frozen=True)
class Check:
    """One published claim, our number and the verdict.

    Attributes
    ----------
    claim : str
        What the paper says, in a few words.
    published : str
        The published value as the paper states it.
    ours : str
        Our value, formatted.
    verdict : {"reproduced", "close", "differs"}
    detail : str
        One line with the numbers behind the verdict.
    """

    claim: str
    published: str
    ours: str
    verdict: str
    detail: str = ""


def _rel(ours, published):
    return abs(float(ours) - float(published)) / abs(float(published)) if published else np.inf


def check_k(claim, published, ours):
    """A :class:`Check` of a number of basis vectors (:func:`verdict_k`)."""
    v = verdict_k(ours, published)
    return Check(claim, f"k = {published}", f"k = {ours}", v,
                 f"ours {ours} vs published {published} (gap {abs(int(ours) - int(published))})")


def check_value(claim, published, ours, *, fmt="{:.4g}", unit=""):
    """A :class:`Check` of a value (:func:`verdict_value`)."""
    v = verdict_value(ours, published)
    p, o = fmt.format(published) + unit, fmt.format(ours) + unit
    gap = 100 * _rel(ours, published)
    return Check(claim, p, o, v, f"ours {o} vs published {p} ({gap:.0f}% apart)")


def check_claim(claim, published, holds, ours, detail=""):
    """A :class:`Check` of a qualitative claim (:func:`verdict_claim`)."""
    return Check(claim, published, ours, verdict_claim(holds), detail or ours)
