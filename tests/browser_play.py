"""Play in a real browser: the animated figures of a page, their Play button, and a log of
the frames drawn and the stops, kept inside the page with its own clock (tests assert the
order of frames, not their timing; benchmarks/bench_play.py measures the frame rate with
the same helpers)."""

from __future__ import annotations

from browser_util import GRAPH_JS, PAGE_TIMEOUT_MS


_RECORD_JS = """([sel, g]) => {
  const gd = document.querySelectorAll(sel)[g];
  window.__mpAnim = {frames: [], stops: [], pauseAt: null};
  const stop = kind => () => window.__mpAnim && window.__mpAnim.stops.push([performance.now(), kind]);
  if (gd && !gd.__mpRecording) {  // one set of listeners per figure, writing to the current log
    gd.__mpRecording = true;
    gd.on('plotly_animatingframe', e => {
      const log = window.__mpAnim;
      if (!log) return;
      log.frames.push([performance.now(), String(e && e.name)]);
      if (log.pauseAt !== null && String(e && e.name) === log.pauseAt) {
        log.pauseAt = null;  // press Pause right after this frame, before the next one is due
        const pause = [...gd.querySelectorAll('.updatemenu-button')]
          .find(b => b.textContent.includes('Pause'));
        setTimeout(() => pause.dispatchEvent(new MouseEvent('click', {bubbles: true})), 0);
      }
    });
    gd.on('plotly_animated', stop('end'));
    gd.on('plotly_animationinterrupted', stop('interrupted'));
  }
  return !!gd;
}"""

_STATE_JS = """([sel, g]) => {
  const gd = document.querySelectorAll(sel)[g];
  if (!gd || !gd._fullLayout) return null;
  const slider = (gd._fullLayout.sliders || [])[0];
  const td = gd._transitionData || {};
  const play = ((gd.layout.updatemenus || [])[0] || {}).buttons || [];
  const opts = (play.find(b => b.method === 'animate' && b.args && b.args[0] === null) || {}).args;
  return {frames: (td._frames || []).map(f => String(f.name)),
          shown: slider ? slider.active + 1 : null,
          playing: !!td._animationRaf,
          frame_ms: opts && opts[1] && opts[1].frame ? opts[1].frame.duration : null};
}"""


_ANIMATED_JS = """(sel) => [...document.querySelectorAll(sel)].flatMap((gd, i) =>
  ((gd.layout || {}).updatemenus || []).some(m =>
    (m.buttons || []).some(b => b.method === 'animate')) ? [i] : [])"""


def animated_graphs(page, wait_ms: int = 0) -> list[int]:
    """Indices (among :data:`GRAPH_JS`) of the figures with a plotly animate button;
    ``wait_ms``: wait up to that long for one (a busy server's figures can mount after the
    page looked settled)."""
    if wait_ms:
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        try:
            page.wait_for_function(f"(sel) => ({_ANIMATED_JS})(sel).length > 0", arg=GRAPH_JS,
                                   timeout=wait_ms)
        except PlaywrightTimeoutError:
            pass  # the caller's check says what is missing
    return page.evaluate(_ANIMATED_JS, GRAPH_JS)




def graph(page, g: int = 0):
    return page.locator(GRAPH_JS).nth(g)


def play_button(page, g: int = 0):
    return graph(page, g).locator(".updatemenu-button", has_text="Play")




def animation_state(page, g: int = 0) -> dict:
    """Figure ``g``: its frame names, the step its slider shows (1-based), whether it is
    playing, and the Play button's frame duration in ms."""
    state = page.evaluate(_STATE_JS, [GRAPH_JS, g])
    assert state is not None, f"no plotly figure {g} on the page"
    return state


def record_animation(page, g: int = 0):
    """Start a fresh in-page log of figure ``g``'s frames and stops (see :func:`animation_log`)."""
    assert page.evaluate(_RECORD_JS, [GRAPH_JS, g]), f"no plotly figure {g} on the page"


def animation_log(page) -> dict:
    """``frames``: [time, name] of every frame drawn; ``stops``: [time, "end" or
    "interrupted"] of every stop; times are the page's performance.now() in ms."""
    return page.evaluate("() => window.__mpAnim")


def page_now(page) -> float:
    return page.evaluate("() => performance.now()")


def pause_after(page, name: str):
    """Have the page press Pause right after frame ``name`` is drawn (during the next Play)."""
    page.evaluate("(name) => { window.__mpAnim.pauseAt = name; }", str(name))




def wait_for_stop(page, timeout_ms: int = PAGE_TIMEOUT_MS):
    """Wait until the logged animation has stopped (played to its end or been interrupted)."""
    page.wait_for_function("() => window.__mpAnim && window.__mpAnim.stops.length > 0",
                           timeout=timeout_ms)


def flush_page_events(page):
    """Return once the page has run a task queued now: errors raised before are reported."""
    page.evaluate("() => new Promise(r => setTimeout(r, 0))")


def drop_interrupted_animation_errors(page, start: int):
    """Drop plotly.js's own interrupted-animation rejection from ``page.page_errors[start:]``.

    Pausing mid-animation makes plotly.js reject the promise of the running
    ``Plotly.animate`` call with no value, and its updatemenu handler does not
    catch it: the browser reports an unhandled rejection whose message is
    "undefined". That one is dropped; any other page error stays.
    """
    flush_page_events(page)
    page.page_errors[start:] = [e for e in page.page_errors[start:] if e != "undefined"]




def wait_for_painted_frames(page, count: int, min_ms: float = 0.0):
    """Return after the browser has painted ``count`` more frames and ``min_ms`` have passed
    (a window in which a running animation would have moved, on any machine)."""
    page.evaluate(
        """([count, minMs]) => new Promise(resolve => {
             const t0 = performance.now(); let n = 0;
             const tick = () => (++n >= count && performance.now() - t0 >= minMs)
               ? resolve() : requestAnimationFrame(tick);
             requestAnimationFrame(tick); })""", [count, min_ms])
