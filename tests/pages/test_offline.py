"""The offline copy of an animation (pages.common.offline.animation_html).

Unit checks on the HTML text (one document, plotly.js embedded once, nothing
linked or fetched, user text escaped), then a browser test that opens the file
with every network request aborted, plays it to the end and steps it with the
keyboard. The figures are the app's own: sparse KPCA and sparse KCCA built by
views/ and mpcore.plots on small data.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from example_views import skpca_on_moons
from mpcore.plots import kcca_animation, skpca_animation_dict
from pages.common.figure_frames import cut_animation
from pages.common.offline import animation_html
from views import kcca as kcca_views

EVIL = "<img src=x onerror=alert(1)>"
K_STEPS = 6


def _skpca_figure(k=K_STEPS):
    v = skpca_on_moons(60, k)
    fig = skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                               trace0=v["trace0"], curves=v["curves"], heatmaps=v["heat"],
                               frame_ms=150)
    lines = [[f"Greedy choice: i = {s.index}, ρ = {s.quotients[s.index]:.4g}",
              f"Trace left: {s.trace_residual:.4g}", EVIL] for s in v["steps"]]
    return fig, lines


@pytest.fixture(scope="module")
def skpca():
    return _skpca_figure()


@pytest.fixture(scope="module")
def skpca_html(skpca):
    fig, lines = skpca
    return animation_html(fig, title="Sparse KPCA <script>alert(2)</script>", lines=lines,
                          caption="moons, n = 60 & rbf")


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)


def _without_plotlyjs(html: str) -> str:
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs()
    assert html.count(js) == 1, "plotly.js must be embedded exactly once"
    return html.replace(js, "")


# ---------------------------------------------------------------- the HTML text


def test_one_standalone_document(skpca_html):
    rest = _without_plotlyjs(skpca_html)
    assert rest.startswith("<!DOCTYPE html>")
    assert rest.count("<html") == 1 and rest.count("</html>") == 1
    p = _Tags()
    p.feed(rest)
    assert p.tags.count("html") == 1 and p.tags.count("body") == 1
    # no external resource of any kind: nothing with src/href, no link, iframe or image
    assert not {"link", "iframe", "img", "object", "embed", "base"} & set(p.tags)
    assert [a for a in p.attrs if a[1] in ("src", "href", "srcset", "action", "data")] == []


def test_no_url_it_would_fetch(skpca_html):
    rest = _without_plotlyjs(skpca_html)
    assert re.findall(r"https?://", rest) == []
    assert "@import" not in rest and "url(" not in rest
    assert "mathjax" not in rest.lower()
    # and the page forbids any fetch (a figure option that would reach out is blocked)
    assert "default-src 'none'" in rest


def test_user_text_is_escaped(skpca_html):
    rest = _without_plotlyjs(skpca_html)
    assert EVIL not in rest
    assert "<script>alert(2)" not in rest
    assert "&lt;img src=x onerror=alert(1)&gt;" in rest       # the first step, in the HTML
    assert "\\u003cimg src=x onerror=alert(1)\\u003e" in rest  # every step, in the JSON data
    # the figure's own markup (<br>, <sub>) travels as data, never as live tags
    p = _Tags()
    p.feed(rest)
    assert "br" not in p.tags and "sub" not in p.tags and "extra" not in p.tags


def test_counter_and_first_lines_in_the_file(skpca):
    fig, lines = skpca
    html = animation_html(cut_animation(fig, K_STEPS, 3), title="t", lines=lines)
    assert f"Step 3 of {K_STEPS}" in html  # opens where the page was
    assert "Trace left:" in html and 'data-step="3"' in html


def test_kcca_figure_and_short_lines():
    d = kcca_views.kcca_data(60, 0.1, 0, 0.25)
    v = kcca_views.kcca_view(d, 1.0, 1.0, 0.1, 4)
    fig = kcca_animation(d["X"], d["Y"], d["z"], v["steps"], train=v["train"], test=v["test"],
                         rho=v["rho"], frame_ms=200)  # a go.Figure is accepted too
    html = animation_html(fig, title="Sparse KCCA", lines=[["only step 1"]])
    assert f"of {len(v['steps'])}" in html and "only step 1" in html


def test_rejects_what_is_not_a_figure():
    with pytest.raises(TypeError):
        animation_html({"layout": {}}, title="x", lines=[])


# ---------------------------------------------------------------- in a browser, offline


@pytest.mark.browser
def test_plays_with_the_network_blocked(skpca_html, browser, tmp_path):
    """Every request but the file itself is aborted; Play reaches the last step; keys step."""
    path = tmp_path / "animation.html"
    path.write_text(skpca_html, encoding="utf-8")
    url = path.as_uri()
    context = browser.new_context(viewport=dict(width=1280, height=720))
    requests, aborted = [], []

    def route(r):
        requests.append(r.request.url)
        if r.request.url == url:
            r.continue_()
        else:
            aborted.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    errors = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]", timeout=30_000)
        counter = page.locator("#mp-counter")
        assert counter.inner_text() == f"Step 1 of {K_STEPS}"
        # the figure fits a 1280x720 projector: Play and the slider with no scrolling
        play = page.locator(".updatemenu-button", has_text="Play")
        box = play.bounding_box()
        assert box and box["y"] + box["height"] <= 720
        assert page.evaluate("() => document.scrollingElement.scrollTop") == 0

        play.click()
        page.wait_for_function(
            "(k) => document.getElementById('mp-counter').textContent === `Step ${k} of ${k}`",
            arg=K_STEPS, timeout=30_000)
        page.wait_for_function("() => document.body.dataset.playing === 'false'")
        lines = page.locator("#mp-lines-box .line")
        assert lines.last.inner_text() == EVIL  # shown as text, never as an element
        assert page.locator("img").count() == 0 and dialogs == []

        slider = "() => document.getElementById('mp-plot')._fullLayout.sliders[0].active"
        page.keyboard.press("ArrowLeft")
        assert counter.inner_text() == f"Step {K_STEPS - 1} of {K_STEPS}"
        page.wait_for_function(f"() => ({slider})() === {K_STEPS - 2}")
        page.keyboard.press("Home")
        assert counter.inner_text() == f"Step 1 of {K_STEPS}"
        page.keyboard.press("ArrowRight")
        assert counter.inner_text() == f"Step 2 of {K_STEPS}"
        page.wait_for_function(f"() => ({slider})() === 1")  # the figure moved with it
        assert lines.first.inner_text().startswith("Greedy choice: i = ")
        page.keyboard.press("End")
        assert counter.inner_text() == f"Step {K_STEPS} of {K_STEPS}"
        # space plays (from the start, being at the end) and space pauses
        page.keyboard.press(" ")
        page.wait_for_function("() => document.body.dataset.playing === 'true'")
        page.keyboard.press(" ")
        page.wait_for_function("() => document.body.dataset.playing === 'false'")

        assert requests == [url] and aborted == []
        assert errors == []
    finally:
        context.close()
