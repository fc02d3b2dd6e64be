"""In a real browser: a student completes lesson 1 at 1280x720 (answers typed, tapped or
chosen, Next by button and by the → key); a phone (390x844, touch) and presentation mode;
screenshots under screenshots/ to look at."""

from __future__ import annotations

import re

import pytest
from browser_util import SCREENSHOTS as SHOTS
from browser_util import (click_learn_point, exceptions_on, new_page, wait_for_app,
                          wait_for_charts, wait_for_point_box)

from pages.common.lesson_file import SCHEMAS, load_lessons
from views import lesson_questions as lq
from views.lesson_scene import skpca_scene
from views.lesson_scene_kmp import kmp_scene

pytestmark = pytest.mark.browser

LESSONS = load_lessons()
LESSON = LESSONS["kernel-matrix"]
CONTENT = '[data-testid="stMarkdownContainer"] h3'


def _settle(pg):
    wait_for_app(pg, content=CONTENT)
    wait_for_charts(pg)


def _answer(pg, q, value, n: int = 0):
    """Give ``value`` to the n-th question on the page, as a student would, and check it."""
    task = pg.locator(f".st-key-learn-q-{n + 1}")
    if q.answer == "option":
        task.locator('[data-testid="stRadio"]').get_by_text(value, exact=True).click()
    elif q.answer == "k":
        for _ in range(int(value) - 1):  # one notch at a time: each is a run of the page
            task.get_by_role("slider").press("ArrowRight")
            _settle(pg)
    elif q.answer in ("point", "number"):
        box = task.locator('[data-testid="stNumberInput"] input')
        box.fill(f"{value:.6g}" if isinstance(value, float) else str(value))
        box.press("Enter")
    _settle(pg)
    label = "Check" if q.answer != "none" else re.compile(r"^Run step \d+$")
    task.get_by_role("button", name=label).click()
    # the feedback (or the note that no answer was given): a busy server may start the
    # Check's run after the page looked settled
    task.locator('[data-testid="stAlert"]').first.wait_for()
    _settle(pg)


def _scene(beat):
    build = {"skpca": skpca_scene, "kmp": kmp_scene}[beat.page]
    return build(beat.state, SCHEMAS[beat.page]["k"].at("hi", beat.state))


@pytest.mark.parametrize("lesson_id", ["kernel-matrix", "greedy-selection",
                                       "kernel-matching-pursuit"])
def test_a_student_completes_a_lesson_at_1280x720(streamlit_server, shared_context, lesson_id):
    SHOTS.mkdir(exist_ok=True)
    lesson = LESSONS[lesson_id]
    tag = {"kernel-matrix": "l1", "greedy-selection": "l2"}.get(lesson_id, lesson_id)
    pg = new_page(shared_context, (1280, 720))
    try:
        pg.goto(f"{streamlit_server.base}/learn?lesson={lesson_id}&beat=1")
        _settle(pg)
        for beat in lesson.beats:
            assert f"beat={beat.number}" in pg.url
            assert pg.get_by_text(f"Beat {beat.number} of {len(lesson.beats)}").count()
            pg.screenshot(path=str(SHOTS / f"learn_{tag}_b{beat.number}_1280x720.png"), full_page=True)
            names = [beat.task.question] if beat.task else list(beat.check)
            for n, name in enumerate(names):
                q = lq.get(name)
                _answer(pg, q, q.right(_scene(beat)), n)
                success = pg.locator('[data-testid="stAlertContentSuccess"]')
                assert success.count() >= n + 1, (
                    f"beat {beat.number}: {name} not accepted: "
                    f"{pg.locator(f'.st-key-learn-q-{n + 1}').inner_text()!r}")
            if names:
                pg.locator(".st-key-learn-task").scroll_into_view_if_needed()
                pg.screenshot(path=str(SHOTS / f"learn_{tag}_b{beat.number}_answered_1280x720.png"),
                              full_page=True)
            assert not exceptions_on(pg) and not pg.page_errors
            if beat.number % 2:
                pg.evaluate("() => document.activeElement && document.activeElement.blur()")
                pg.keyboard.press("ArrowRight")  # the presentation keys work outside it too
            else:
                pg.locator(".st-key-learn-next button").click()
            if beat.number < len(lesson.beats):
                pg.wait_for_url(re.compile(rf"beat={beat.number + 1}"))
                _settle(pg)
        wait_for_app(pg, content="h1")
        assert "lesson=" not in pg.url and pg.get_by_text("Open your own lesson file").count()
    finally:
        pg.close()


def _tap_the_answer(pg, beat):
    """Click the computed right point in the data panel: it becomes the answer."""
    s = _scene(beat)
    i = lq.get(beat.task.question).right(s)
    click_learn_point(pg, i)
    wait_for_point_box(pg, ".st-key-learn-q-1", i)
    _settle(pg)
    pg.locator(".st-key-learn-q-1").get_by_role("button", name="Check").click()
    _settle(pg)
    assert pg.locator('[data-testid="stAlertContentSuccess"]').count() == 1
    pg.locator(".st-key-learn-task").scroll_into_view_if_needed()
    pg.screenshot(path=str(SHOTS / "learn_l1_b3_tapped_390x844.png"))


def test_phone_touch_figure_then_task(streamlit_server, browser):
    SHOTS.mkdir(exist_ok=True)
    ctx = browser.new_context(viewport=dict(width=390, height=844), has_touch=True, is_mobile=True,
                              device_scale_factor=2)
    pg = new_page(ctx)
    try:
        for beat in (3, 6):
            pg.goto(f"{streamlit_server.base}/learn?lesson=kernel-matrix&beat={beat}")
            _settle(pg)
            doc = pg.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert doc[0] <= doc[1], doc  # nothing wider than the phone
            task = pg.locator(".st-key-learn-task").bounding_box()
            fig = pg.locator(".st-key-learn-figure")
            if fig.count():
                assert fig.bounding_box()["y"] < task["y"]  # figure, then the task under it
            pg.screenshot(path=str(SHOTS / f"learn_l1_b{beat}_390x844.png"), full_page=True)
            assert not exceptions_on(pg)
            if beat == 3:
                _tap_the_answer(pg, LESSON.beats[2])
        pg.goto(f"{streamlit_server.base}/learn")
        wait_for_app(pg, content="h1")
        pg.screenshot(path=str(SHOTS / "learn_list_390x844.png"), full_page=True)
    finally:
        ctx.close()


def _title_on_screen(pg) -> bool:
    """The beat's title (its h3) lies within the window."""
    box = pg.locator(CONTENT).first.bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844


def test_a_phone_opens_each_beat_at_its_top(streamlit_server, browser):
    ctx = browser.new_context(viewport=dict(width=390, height=844), has_touch=True, is_mobile=True)
    pg = new_page(ctx)
    try:
        pg.goto(f"{streamlit_server.base}/learn?lesson=greedy-selection&beat=5")
        _settle(pg)
        q = lq.get(LESSONS["greedy-selection"].beats[4].task.question)
        _answer(pg, q, q.wrong(_scene(LESSONS["greedy-selection"].beats[4])))
        # an answer is a run of the same beat: the student stays at the feedback
        assert not _title_on_screen(pg)
        assert pg.locator('[data-testid="stAlertContentWarning"]').first.bounding_box()["y"] < 844
        for button, beat in ((".st-key-learn-next button", 6), (".st-key-learn-back button", 5)):
            pg.locator(button).scroll_into_view_if_needed()
            assert not _title_on_screen(pg)
            pg.locator(button).tap()
            pg.wait_for_url(re.compile(rf"beat={beat}(&|$)"))
            _settle(pg)
            pg.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')")
            assert pg.get_by_text(f"Beat {beat} of").count()
            assert _title_on_screen(pg), f"beat {beat} did not open at its title"
        assert not exceptions_on(pg) and not pg.page_errors
    finally:
        ctx.close()


def test_presentation_mode_with_the_keys(streamlit_server, shared_context):
    pg = new_page(shared_context, (1280, 720))
    try:
        pg.goto(f"{streamlit_server.base}/learn?lesson=greedy-selection&beat=2&present=1")
        _settle(pg)
        assert pg.evaluate("() => document.querySelector('[data-testid=\"stSidebar\"]')?."
                           "getBoundingClientRect().width || 0") == 0
        size = pg.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                           "'.st-key-learn-prose p')).fontSize)")
        assert size >= 26
        pg.screenshot(path=str(SHOTS / "learn_present_l2_b2_1280x720.png"))
        pg.evaluate("() => document.activeElement && document.activeElement.blur()")
        pg.keyboard.press("PageDown")
        pg.wait_for_url(re.compile(r"beat=3"))
        _settle(pg)
        pg.keyboard.press("ArrowLeft")
        pg.wait_for_url(re.compile(r"beat=2"))
        assert "present=1" in pg.url and "present=1" in pg.evaluate("() => location.search")
        assert not exceptions_on(pg) and not pg.page_errors
    finally:
        pg.close()
