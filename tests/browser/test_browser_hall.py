"""In a real browser: a lecturer (1280x720) and three students on phones (390x844, touch)
run one hall poll from start to reveal: the lecturer starts a hall on a lesson's beat,
students open the join link and follow, the lecturer opens the beat's task, the students
send their answers, the projector counts them live, the lecturer reveals and moves on, and
the phones follow. Three times: served by ``streamlit run app.py`` (the phones' pages run a
timer), by ``deploy/hall_app.py`` (the phones' watcher asks the hall's version route: its
JavaScript, its report and the page's run on it are exercised only here), and by
``deploy/serve.py``'s stack (HAProxy, a Streamlit process, redis-server and the version
process that answers the watchers). Screenshots of the projector and a phone under
screenshots/ to look at."""

from __future__ import annotations

import csv
import io
import re
import sys
import urllib.request
from urllib.parse import parse_qsl, urlencode, urlsplit
from pathlib import Path

import pytest
from playwright.sync_api import expect
from browser_util import (PHONE_USER_AGENT, StreamlitServer, click_learn_point,
                          consecutive_free_ports, exceptions_on, free_port, require_chromium,
                          skip_or_fail, wait_for_app, wait_for_charts, wait_for_point_box)
from browser_util import SCREENSHOTS as SHOTS

from pages.common.learn_beat import WAIT_FOR_POLL
from pages.common.lesson_file import SCHEMAS, load_lessons
from views import lesson_questions as lq
from views.lesson_scene import skpca_scene

pytestmark = pytest.mark.browser

LESSON, BEAT = "greedy-selection", 2
TIMEOUT = 60_000


def _page(browser, size, phone=False):
    ctx = browser.new_context(viewport=dict(width=size[0], height=size[1]),
                              device_scale_factor=1, has_touch=phone, is_mobile=phone,
                              user_agent=PHONE_USER_AGENT if phone else None)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT)
    pg.page_errors = []
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    return pg


def _answers():
    beat = load_lessons()[LESSON].beats[BEAT - 1]
    q = lq.get(beat.task.question)
    scene = skpca_scene(beat.state, SCHEMAS["skpca"]["k"].at("hi", beat.state))
    return int(q.right(scene)), int(q.wrong(scene))


class ServedHall:
    """``deploy/serve.py``'s hall (no warm-up) with what the test reads of a server."""

    script = "deploy/serve.py"

    def __init__(self):
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy"))
        import serve
        from hall.redis_server import redis_binary

        # one Streamlit process: the browsers' load beside the suite's other tests stays
        # that of one server (the deploy tests and the load test cover two)
        self.hall = serve.Hall(1, port=free_port(), first_port=consecutive_free_ports(1),
                               bind="127.0.0.1", redis_port=free_port(),
                               stats_port=free_port())
        if not Path(self.hall.haproxy).exists() or redis_binary() is None:
            self.hall.__exit__()
            skip_or_fail("haproxy or redis-server is not installed", "The hall's browser test")
        self.base = self.hall.url

    def start(self):
        self.hall.__enter__()
        return self

    def stop(self):
        self.hall.__exit__()

    def version_answers(self) -> dict[str, int]:
        """Requests each server of HAProxy's version backend answered (its status page)."""
        url = f"http://127.0.0.1:{self.hall.stats_port}/;csv"
        with urllib.request.urlopen(url, timeout=10) as r:
            rows = list(csv.DictReader(io.StringIO(r.read().decode().lstrip("# "))))
        return {row["svname"]: int(row["stot"]) for row in rows
                if row["pxname"] == "version" and row["svname"] not in ("FRONTEND", "BACKEND")}


@pytest.fixture(params=["app.py", "deploy/hall_app.py", "deploy/serve.py"],
                ids=["timer", "watcher", "served"])
def hall_server(request):
    require_chromium()
    server = (ServedHall() if request.param == "deploy/serve.py"
              else StreamlitServer(script=request.param)).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_lecturer_and_three_phones_run_a_poll(hall_server, browser):
    SHOTS.mkdir(exist_ok=True)
    right, wrong = _answers()
    base = hall_server.base
    watcher = hall_server.script != "app.py"
    lec = _page(browser, (1280, 720))
    lec.goto(f"{base}/learn?lesson={LESSON}&beat={BEAT}")
    wait_for_app(lec, content="h3")
    lec.get_by_role("button", name="Start a hall session").click()
    lec.locator(".st-key-hall-join").wait_for()
    room = re.search(r"hall=([A-Z2-9]{6})", lec.url).group(1)
    assert "hall_key=" in lec.url
    wait_for_app(lec, content="h3")
    lec.screenshot(path=str(SHOTS / "hall_projector_join_1280x720.png"))
    link = lec.locator(".st-key-hall-join code").inner_text()
    assert link.endswith(f"/learn?hall={room}") and "hall_key" not in link

    phones = []
    for _ in range(3):
        pg = _page(browser, (390, 844), phone=True)
        pg.goto(f"{base}/learn?hall={room}")
        pg.wait_for_url(re.compile(rf"lesson={LESSON}&beat={BEAT}"), timeout=TIMEOUT)
        pg.get_by_text(f"Hall {room}: following the lecturer").wait_for()
        assert "hall_key" not in pg.url
        phones.append(pg)
    if watcher:  # the watcher's script runs on the phone: the route held its first request
        for pg in phones:  # until it answered with no move, and it asked again at once
            pg.wait_for_function("() => (window.__mpHallWatch || {}).polls >= 2")
    else:
        assert all(pg.evaluate("() => window.__mpHallWatch === undefined") for pg in phones)
    if isinstance(hall_server, ServedHall):  # the watchers' requests reach the version process
        answered = hall_server.version_answers()
        assert answered["version"] >= 3 and answered["app1"] == 0, answered
    lec.get_by_text("3 of 3 following").wait_for()
    for pg in phones:  # the lecturer turns the beats and opens the task: no Back / Next
        pg.get_by_text(WAIT_FOR_POLL).wait_for()
        assert pg.locator(".st-key-learn-next").count() == 0
    wait_for_app(phones[0], content="h3")
    wait_for_charts(phones[0])
    phones[0].locator(".st-key-learn-task").scroll_into_view_if_needed()
    phones[0].screenshot(path=str(SHOTS / "hall_phone_follow_390x844.png"))
    lec.get_by_role("button", name="Hide the join code").click()
    lec.locator(".st-key-hall-join").wait_for(state="detached")  # the buttons below move up
    wait_for_app(lec, content="h3")

    lec.get_by_role("button", name="Open this task to the hall").click()
    lec.get_by_text("Answers: 0").wait_for()
    for i, pg in enumerate(phones):
        box = pg.locator(".st-key-hall-answer")
        box.wait_for()  # within a tick or two of the poll opening
        wait_for_app(pg, content=".st-key-hall-answer")
        field = box.locator('[data-testid="stNumberInput"] input')
        if i == 1:  # this student taps the point in the figure; the others type its number
            click_learn_point(pg, right)
            wait_for_point_box(pg, ".st-key-hall-answer", right, timeout_ms=TIMEOUT)
        else:
            field.fill(str(right if i < 2 else wrong))
            field.press("Enter")
        wait_for_app(pg, content=".st-key-hall-answer")
        box.get_by_role("button", name="Send").tap()
        pg.get_by_text("Answer sent (you can change it until the poll closes)").wait_for()
    lec.get_by_text("Answers: 3").wait_for()  # the projector's live count
    wait_for_charts(lec)
    lec.locator(".st-key-hall-poll").scroll_into_view_if_needed()
    lec.screenshot(path=str(SHOTS / "hall_projector_poll_1280x720.png"))
    phones[0].screenshot(path=str(SHOTS / "hall_phone_sent_390x844.png"), full_page=True)

    lec.get_by_role("button", name="Reveal the answer").click()
    lec.get_by_text("2 of 3 right (67 %)").wait_for()
    wait_for_app(lec, content="h3")
    assert lec.get_by_role("button", name="Close the poll").count() == 0  # not left behind
    wait_for_charts(lec)
    lec.locator(".st-key-hall-poll").scroll_into_view_if_needed()
    lec.screenshot(path=str(SHOTS / "hall_projector_reveal_1280x720.png"))
    for i, pg in enumerate(phones):
        pg.get_by_text("Your score: ").wait_for()
        assert pg.get_by_text("Yours was right." if i < 2 else "Yours was not right.").count()
        assert "hall_key" not in pg.content() and "hall_key" not in pg.url
    phones[0].locator(".st-key-hall-answer").scroll_into_view_if_needed()
    phones[0].screenshot(path=str(SHOTS / "hall_phone_reveal_390x844.png"))
    phones[2].screenshot(path=str(SHOTS / "hall_phone_wrong_390x844.png"), full_page=True)
    # the projector in presentation mode: the hall's box moves from the hidden sidebar
    lec.get_by_text("Presentation mode").click()
    lec.wait_for_url(re.compile("present=1"))
    wait_for_app(lec, content="h3")
    wait_for_charts(lec)
    # the status line says who this browser is; the box under it, what it holds
    assert lec.get_by_text(f"Hall {room}: you are the lecturer").count() == 1
    assert lec.get_by_text(f"Hall {room}: join code, export, end").count() == 1
    lec.screenshot(path=str(SHOTS / "hall_projector_present_1280x720.png"))
    lec.locator(".st-key-hall-poll").scroll_into_view_if_needed()
    lec.screenshot(path=str(SHOTS / "hall_projector_present_reveal_1280x720.png"))
    # the lecturer moves on: every phone follows to the next beat, and is still counted
    lec.get_by_role("button", name="Next ▶").first.click()
    lec.wait_for_url(re.compile(rf"beat={BEAT + 1}"))
    for pg in phones:
        pg.wait_for_url(re.compile(rf"lesson={LESSON}&beat={BEAT + 1}"), timeout=TIMEOUT)
        pg.get_by_text(f"Hall {room}: following the lecturer").wait_for()
    lec.get_by_text("3 of 3 following").first.wait_for()
    # a phone explores on its own: the lecturer's count drops, and stays down past the
    # watcher's next presence marks (they say the phone's choice too); it follows again
    phones[1].get_by_role("button", name="Explore on my own").tap()
    phones[1].get_by_text(f"Hall {room}: exploring on your own").wait_for()
    phones[1].locator(".st-key-learn-next").wait_for()  # its own Back / Next again
    lec.get_by_text("2 of 3 following").first.wait_for()
    phones[1].wait_for_timeout(4_000)
    expect(lec.get_by_text("2 of 3 following").first).to_be_visible()
    phones[1].get_by_role("button", name="Follow the lecturer").tap()
    phones[1].get_by_text(f"Hall {room}: following the lecturer").wait_for()
    phones[1].locator(".st-key-learn-next").wait_for(state="detached")
    lec.get_by_text("3 of 3 following").first.wait_for()
    # the lecturer opens another lesson from a link: a phone's beat (the fragment its
    # watcher reruns) cannot draw another lesson's title, so it reruns the page, which does
    lessons = load_lessons()
    other = next(lesson for lid, lesson in lessons.items() if lid != LESSON)
    address = dict(parse_qsl(urlsplit(lec.url).query))
    lec.goto(f"{base}/learn?{urlencode({**address, 'lesson': other.id, 'beat': '1'})}")
    wait_for_app(lec, content="h3")
    for pg in phones:
        pg.wait_for_url(re.compile(rf"lesson={other.id}&beat=1"), timeout=TIMEOUT)
        pg.get_by_text(other.beats[0].title, exact=True).wait_for()
        pg.get_by_text(other.title, exact=True).wait_for()
        expect(pg.get_by_text(lessons[LESSON].title, exact=True)).to_have_count(0)
        pg.get_by_text(f"Hall {room}: following the lecturer").wait_for()
    for pg in [lec, *phones]:
        assert not exceptions_on(pg), exceptions_on(pg)
        assert not pg.page_errors, pg.page_errors
        pg.context.close()
