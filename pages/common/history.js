export default function (component) {
  const { data } = component || {};
  const SETTLE = (data && data.settle) || 1500;
  // Streamlit pushes a browser-history entry for every address a run writes (every slider
  // notch passed, every Step of a play, the bare address of a page switch). An entry is
  // kept only for a view the person saw settle: a new address replaces the current entry
  // while that entry's view has been on screen for less than SETTLE ms (counted from the
  // end of the run that drew it, or from its push when no full run follows, as in a play).
  if (!window.__mpHistory) {
    const h = window.history;
    const push = h.pushState.bind(h), replace = h.replaceState.bind(h);
    const s = window.__mpHistory = { since: -Infinity, dirty: false, pushes: 0, replaced: 0 };
    h.pushState = function (state, unused, url) {
      const now = performance.now();
      const quick = now - s.since < SETTLE;
      s.since = now;
      s.dirty = true;
      if (quick) { s.replaced++; return replace(state, unused, url); }
      s.pushes++;
      return push(state, unused, url);
    };
    // Back and Forward land on a view that was seen: the next change adds an entry after it
    window.addEventListener("popstate", () => { s.since = -Infinity; s.dirty = false; });
  }
  // the end of a run: the view the last push named is on screen from now
  const s = window.__mpHistory;
  if (data && data.ended && s.dirty) { s.since = performance.now(); s.dirty = false; }
}
