"""The kernel matching pursuit page under AppTest: a fresh session (:func:`open_page`), a
control set and checked, the last step, and what the page shows (chosen points,
settings, figures). Used by tests/pages/test_page_kmp.py and tests/pages/test_kmp_upload.py.
"""

from __future__ import annotations

import functools
import re

from apptest_util import (assert_clean, chart_elements, chart_spec, data_settings, open_app_page,
                          widget)
from apptest_util import step_counter as counter  # (j, n_steps) of the step counter

PAGE = "pages/kmp.py"
CHOSEN = re.compile(r"^Chosen so far \(training indices, -1 = constant\):\s*(.*)$")


#: A fresh session on this page, opened with URL ``params`` and session ``state``:
#: ``open_page(params, state)``.
open_page = functools.partial(open_app_page, PAGE)


def set_widget(at, kind, key, value):
    getattr(at, kind)(key=key).set_value(value).run()
    assert_clean(at)
    return at


def to_last(at):
    at.button(key="kmp.last").click().run()
    assert_clean(at)
    j, n = counter(at)
    assert j == n
    return at


def chosen(at) -> list[int]:
    caps = [CHOSEN.match(c.value) for c in at.caption]
    caps = [c for c in caps if c]
    assert len(caps) == 1, [c.value for c in at.caption]
    return [int(t) for t in caps[0].group(1).split(",")]


def settings(at) -> dict:
    return dict(
        data_settings(at),
        test=widget(at, "slider", "test", 0.3), k=widget(at, "slider", "k"),
        fitting=widget(at, "selectbox", "kmp.fitting"), loss=widget(at, "selectbox", "kmp.loss"),
        backfit_every=widget(at, "slider", "kmp.backfit_every", 1),
        stop=widget(at, "selectbox", "kmp.stop"), mix=widget(at, "selectbox", "kmp.dict"),
        feature=widget(at, "selectbox", "kmp.feature", "all features"),
        cls=int(widget(at, "selectbox", "kmp.class", "0")),  # blobs: labels 0, 1, 2 = indices
    )


def figures(at) -> list[dict]:
    return [chart_spec(c) for c in chart_elements(at)]
