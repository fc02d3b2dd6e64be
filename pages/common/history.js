export default function (component) {
  const { data } = component || {};
  const SETTLE = (data && data.settle) || 1500;
  // Streamlit pushes a browser-history entry for every address a run writes (every slider
  // notch passed, every Step of a play, the bare address of a page switch). An entry is
  // kept only for a view the person saw settle: a new address replaces the current entry
  // while that entry's view was on screen for less than SETTLE ms. Its time on screen runs
  // from the end of the run that drew it (or from its push when no full run follows, as in
  // a play) until the person left it: their last click, tap or key after its push, or the
  // start of the next full run, whichever came first; else until the new address. So a
  // slow server, whose next run writes its address long after the person moved on, does
  // not make a view passed on the way look settled.
  if (!window.__mpHistory) {
    const h = window.history;
    const push = h.pushState.bind(h), replace = h.replaceState.bind(h);
    const s = window.__mpHistory = {
      since: -Infinity, dirty: false, pushedAt: -Infinity, inputAt: -Infinity,
      startedAt: null, run: null, ended: null, pushes: 0, replaced: 0,
    };
    h.pushState = function (state, unused, url) {
      const now = performance.now();
      let left = now;
      if (s.inputAt > s.pushedAt) left = Math.min(left, s.inputAt);
      if (s.startedAt !== null) left = Math.min(left, s.startedAt);
      const quick = left - s.since < SETTLE;
      s.since = s.pushedAt = now;
      s.startedAt = null;
      s.dirty = true;
      if (quick) { s.replaced++; return replace(state, unused, url); }
      s.pushes++;
      return push(state, unused, url);
    };
    const input = () => { s.inputAt = performance.now(); };
    window.addEventListener("pointerdown", input, true);
    window.addEventListener("keydown", input, true);
    // Back and Forward land on a view that was seen: the next change adds an entry after it
    window.addEventListener("popstate", () => {
      s.since = -Infinity;
      s.dirty = false;
      s.pushedAt = performance.now();
      s.startedAt = null;
    });
  }
  const s = window.__mpHistory;
  if (!data) return;
  // the start of a full run: the person left the view on screen (if it was not left before)
  if (data.started && data.started !== s.run) {
    s.run = data.started;
    if (s.startedAt === null) s.startedAt = performance.now();
  }
  // the end of a run: the view the last push named is on screen from now (a run that
  // wrote no address left the view as it was)
  if (data.ended && data.ended !== s.ended) {
    s.ended = data.ended;
    s.startedAt = null;
    if (s.dirty) { s.since = performance.now(); s.dirty = false; }
  }
}
