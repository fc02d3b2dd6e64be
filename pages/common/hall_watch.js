// The hall's watcher on a student's page (pages/common/hall_watch.py): it asks the hall's
// version route (hall/version_route.py) with the version the page acted on; the route holds
// the request until the lecturer moves (or a few seconds pass: then it asks again at once).
// When the answer is not the version the page acted on (or the page says the hall was
// unavailable and the route answers again), it reports "moved": Streamlit reruns the page
// (on a lesson's beat, the beat's fragment, which holds this watcher), which follows the
// lecturer. Nothing runs on the server for this page between two moves. After a report it
// asks nothing until the page's run draws it again. A failed request is made again after
// data.everyMs; a report that started no run (the connection lost meanwhile) is made again
// after data.retryMs.
export default function (component) {
  const { data, setTriggerValue } = component;
  const s = window.__mpHallWatch ||
    (window.__mpHallWatch = { polls: 0, busy: false, asked: null, askedAt: 0 });
  if (s.draw !== data.draw) s.asked = null;  // a newer run of the page: it may ask again
  s.draw = data.draw;
  s.data = data;
  s.report = setTriggerValue;
  clearInterval(s.timer);
  s.timer = setInterval(() => ask(s), data.everyMs);
  ask(s);
  return () => { clearInterval(s.timer); s.timer = null; };
}

async function ask(s) {
  if (s.busy) return;  // one request at a time
  if (s.asked !== null) {
    if (Date.now() - s.askedAt < s.data.retryMs) return;  // the page's run is on its way
    s.asked = null;  // no run came: ask, and report again
  }
  s.busy = true;
  let again = false;
  try {
    const d = s.data;
    s.polls += 1;
    const q = new URLSearchParams({ room: d.room, following: d.following ? "1" : "0" });
    if (d.me) { q.set("me", d.me); q.set("seen", "1"); }
    const held = !d.stale && Number.isInteger(d.version);  // the route holds this request
    if (held) q.set("since", String(d.version));
    const r = await fetch(`${d.url}?${q}`, { cache: "no-store", credentials: "same-origin" });
    if (!r.ok) return;  // the store down (503): the page already says so
    const v = (await r.json()).version;
    const now = s.data;  // the page may have run meanwhile
    if ((v !== now.version || now.stale) && s.asked !== v) {
      s.asked = v;
      s.askedAt = Date.now();
      s.report("moved", v);
    } else {
      // the route held the request and nothing moved: wait again at once; a request it
      // answered at once (no version to wait on: the session gone) is made again a tick later
      again = held;
    }
  } catch (e) {
    // the server restarting or the network gone: the interval asks again
  } finally {
    s.busy = false;
    if (again && s.timer !== null) ask(s);
  }
}
