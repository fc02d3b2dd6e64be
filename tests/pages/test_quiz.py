"""Predict the next pick: the quiz records a guess, reveals the choice and keeps a score.

The choice and the quotients shown are compared with mpcore's own greedy steps on the
same data (the page's training rows), so a wrong reveal fails here.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from apptest_util import assert_clean, open_app_page, reference_data, reference_split, timeline

from mpcore.kernels import kernel_matrix
from mpcore.skpca import greedy_steps
from pages.common.schemas import KMP, SKPCA

pytestmark = pytest.mark.slow

N = 60


def _quiz_text(at, page):
    return [m.value for m in at.markdown if "Predict the next pick" in m.value]


def _score(at) -> tuple[int, int]:
    text = next(m.value for m in at.markdown if "Predict the next pick" in m.value)
    right, tries = re.search(r"score: (\d+) of (\d+) right", text).groups()
    return int(right), int(tries)


def test_quiz_field_is_in_the_schemas():
    assert SKPCA["skpca.quiz"].default is False
    assert KMP["kmp.quiz"].default is False


def test_skpca_quiz_reveals_the_greedy_choice_and_scores_the_guess():
    at = open_app_page("pages/skpca.py", params={"n": N, "k": 6, "skpca.quiz": "true"})
    assert_clean(at)
    assert _score(at) == (0, 0)
    assert timeline(at)["j"] == 1
    steps_line = timeline(at)["lines"]
    actual2 = int(re.search(r"i₂ = (\d+)", steps_line[1][0]).group(1))
    wrong = (actual2 + 1) % 10
    at.number_input(key="skpca.quiz.guess").set_value(wrong).run()
    at.button(key="skpca.quiz.reveal").click().run()
    assert_clean(at)
    assert timeline(at)["j"] == 2
    assert _score(at) == (0, 1)
    shown = " ".join(m.value for m in at.info)
    assert f"you guessed i = {wrong}" in shown and f"chose i = {actual2}" in shown
    # now guess right
    actual3 = int(re.search(r"i₃ = (\d+)", steps_line[2][0]).group(1))
    at.number_input(key="skpca.quiz.guess").set_value(actual3).run()
    at.button(key="skpca.quiz.reveal").click().run()
    assert_clean(at)
    assert timeline(at)["j"] == 3
    assert _score(at) == (1, 2)
    assert any(f"chose i = {actual3}" in m.value and "Right" in m.value for m in at.success)


def test_skpca_quiz_quotients_match_mpcore():
    at = open_app_page("pages/skpca.py", params={"n": N, "k": 4, "kernel": "linear",
                                                  "skpca.quiz": "true"})
    assert_clean(at)
    s = {"dataset": "moons", "n": N, "seed": 0, "test": 0.3, "noise": 0.2, "std": True}
    d, X = reference_data(s)
    tr, _ = reference_split(d, N, s)
    steps = list(greedy_steps(kernel_matrix(X[tr], kernel="linear"), 4))
    guess = next(i for i in range(len(tr)) if i not in (steps[0].index, steps[1].index))
    at.number_input(key="skpca.quiz.guess").set_value(guess).run()
    at.button(key="skpca.quiz.reveal").click().run()
    text = " ".join(m.value for m in at.info)
    assert f"chose i = {steps[1].index} (ρ = {steps[1].quotients[steps[1].index]:.4g}" in text
    assert f"ρ = {steps[1].quotients[guess]:.4g}" in text


def test_quiz_off_draws_no_quiz():
    at = open_app_page("pages/skpca.py", params={"n": N, "k": 4})
    assert_clean(at)
    assert not _quiz_text(at, "skpca")
    assert not np.any([b.key == "skpca.quiz.reveal" for b in at.button])


@pytest.mark.parametrize("fitting", ["basic", "prefit"])
def test_kmp_quiz_reveals_the_pursuit_choice_and_its_collinearity(fitting):
    at = open_app_page("pages/kmp.py", params={"n": N, "k": 5, "kmp.quiz": "true",
                                                "kmp.fitting": fitting})
    assert_clean(at)
    assert _score(at) == (0, 0)
    at.number_input(key="kmp.quiz.guess").set_value(3).run()
    at.button(key="kmp.quiz.reveal").click().run()
    assert_clean(at)
    assert timeline(at)["j"] == 2
    right, tries = _score(at)
    assert tries == 1
    text = " ".join(m.value for m in [*at.info, *at.success])
    assert "you guessed i = 3" in text and "Collinearity with the residue" in text
    actual = int(re.search(r"added K\(·, x_(\d+)\)", text).group(1))
    assert right == int(actual == 3)
    # the chosen function has the largest score the page computes (the pursuit's argmax)
    chosen, yours = (float(x) for x in re.search(r"chosen ([\d.e+-]+), yours ([\d.e+-]+)",
                                                  text).groups()) if actual != 3 else (1, 1)
    assert chosen >= yours


# Every setting of the page's Step: the five losses, the three fittings, mixed dictionaries,
# early stopping (a held-out point is no candidate), one-vs-rest and regression.
KMP_CASES = [
    dict(**{"kmp.loss": "squared", "kmp.fitting": "backfit"}),
    dict(**{"kmp.loss": "logistic", "kmp.fitting": "basic"}),
    dict(**{"kmp.loss": "tanh", "kmp.fitting": "prefit", "kmp.dict": "widths"}),
    dict(**{"kmp.loss": "exponential", "kmp.fitting": "backfit"}),
    dict(**{"kmp.loss": "margin_tanh", "kmp.fitting": "prefit", "kmp.dict": "types"}),
    dict(dataset="blobs", **{"kmp.loss": "logistic", "kmp.class": "2"}),
    dict(dataset="sine", **{"kmp.fitting": "prefit", "kmp.stop": "bound"}),
]


def _kmp_reference(at):
    """mpcore's fit and replayed steps for the page's settings, on data rebuilt here."""
    from test_page_kmp import reference_model, reference_split, settings

    from mpcore.kmp import replay_steps

    s = settings(at)
    X, y, _, _, task = reference_split(s)
    model = reference_model(s)
    multi = task == "classification" and np.unique(y).size > 2
    path = s["cls"] if multi else None
    dictionary, rows, steps = replay_steps(model, X, y, path)
    basis = (model.estimators_[path] if multi else model).basis_indices_
    centre = np.where(dictionary.train_index >= 0, rows[np.maximum(dictionary.train_index, 0)], -1)
    return list(basis), centre, steps


@pytest.mark.parametrize("params", KMP_CASES, ids=lambda p: "-".join(map(str, p.values())))
def test_kmp_quiz_every_setting_reveals_mpcore_pick_with_its_criterion(params):
    at = open_app_page("pages/kmp.py", params={"n": N, "k": 5, "kmp.quiz": "true", **params})
    assert_clean(at)
    basis, centre, steps = _kmp_reference(at)
    assert len(basis) >= 3
    rights = 0
    for j, guess_right in ((1, True), (2, False)):
        actual = basis[j]  # mpcore's pick of step j + 1
        guess = actual if guess_right and actual >= 0 else (
            next(i for i in range(10) if i not in basis[: j + 1]))
        at.number_input(key="kmp.quiz.guess").set_value(guess).run()
        at.button(key="kmp.quiz.reveal").click().run()
        assert_clean(at)
        assert timeline(at)["j"] == j + 1
        text = " ".join(m.value for m in [*at.info, *at.success])
        name = "the constant function" if actual < 0 else f"K(·, x_{actual})"
        assert f"Step {j + 1}: you guessed i = {guess}, the pursuit added {name}." in text
        sc = steps[j].scores  # the criterion mpcore maximised to choose step j + 1
        assert steps[j].index == int(np.nanargmax(sc))
        assert f"chosen {sc[steps[j].index]:.4g}, yours" in text
        mine = sc[centre == guess]  # the guess's columns (one per kernel of the dictionary)
        if np.any(np.isfinite(mine)):
            assert f"yours {np.nanmax(mine):.4g}" in text
        else:
            assert re.search(r"yours (not a candidate|undefined)", text)
        assert ("Right!" in text) == (guess == actual)
        rights += guess == actual
        squared = params.get("kmp.loss", "squared") == "squared" or params.get("dataset") == "sine"
        assert ("Collinearity with the residue" if squared
                else "Collinearity with the negative gradient") in text
    assert _score(at) == (rights, 2)


def test_kmp_quiz_validation_hold_out_is_no_candidate():
    at = open_app_page("pages/kmp.py", params={"n": N, "k": 4, "kmp.quiz": "true",
                                                "kmp.stop": "validation"})
    assert_clean(at)
    _, centre, _ = _kmp_reference(at)
    held = next(i for i in range(N) if i not in set(centre.tolist()))
    at.number_input(key="kmp.quiz.guess").set_value(held).run()
    at.button(key="kmp.quiz.reveal").click().run()
    assert_clean(at)
    text = " ".join(m.value for m in [*at.info, *at.success])
    assert "yours not a candidate (held out" in text
    assert _score(at) == (0, 1)


def test_nothing_is_scored_that_the_student_did_not_choose():
    at = open_app_page("pages/skpca.py", params={"n": N, "k": 6, "skpca.quiz": "true"})
    assert_clean(at)
    assert at.number_input(key="skpca.quiz.guess").value is None  # no guess yet
    assert at.button(key="skpca.quiz.reveal").disabled
    assert _score(at) == (0, 0) and timeline(at)["j"] == 1
    at.number_input(key="skpca.quiz.guess").set_value(4).run()
    assert not at.button(key="skpca.quiz.reveal").disabled
    at.button(key="skpca.quiz.reveal").click().run()
    assert _score(at) == (int(at.success.len > 0), 1)
    # the next step's guess is the student's own again
    assert at.number_input(key="skpca.quiz.guess").value is None


def test_a_reveal_belongs_to_the_view_it_was_made_in():
    at = open_app_page("pages/skpca.py", params={"n": N, "k": 6, "skpca.quiz": "true"})
    at.number_input(key="skpca.quiz.guess").set_value(4).run()
    at.button(key="skpca.quiz.reveal").click().run()
    said = [m.value for m in [*at.info, *at.success] if "you guessed i = 4" in m.value]
    assert said
    at.selectbox(key="dataset").set_value("circles").run()
    assert_clean(at)
    assert not [m.value for m in [*at.info, *at.success] if "you guessed" in m.value]
