// The hall's watcher on a student's page (pages/common/hall_watch.py): every data.everyMs it
// asks the hall's version route (hall/version_route.py) and, when the version is not the
// one the page last acted on (or the page says the hall was unavailable and the route
// answers again), reports "moved": Streamlit reruns the page (on a lesson's beat, the beat's
// fragment, which holds this watcher), which follows the lecturer.
// Nothing runs on the server for this page between two moves. After a report it asks
// nothing until the page's run draws it again: right after a move the servers are busy
// with every follower's run, and a question then would only slow them. A report that
// started no run (the connection lost meanwhile) is made again after data.retryMs.
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
  return () => { clearInterval(s.timer); };
}

async function ask(s) {
  if (s.busy) return;  // one request at a time: a slow answer is not asked again meanwhile
  if (s.asked !== null) {
    if (Date.now() - s.askedAt < s.data.retryMs) return;  // the page's run is on its way
    s.asked = null;  // no run came: ask, and report again
  }
  s.busy = true;
  try {
    const d = s.data;
    s.polls += 1;
    const q = new URLSearchParams({ room: d.room, following: d.following ? "1" : "0" });
    if (d.me && s.polls % d.seenEvery === 0) { q.set("me", d.me); q.set("seen", "1"); }
    const r = await fetch(`${d.url}?${q}`, { cache: "no-store", credentials: "same-origin" });
    if (!r.ok) return;  // the store down (503): the page already says so
    const v = (await r.json()).version;
    if ((v !== d.version || d.stale) && s.asked !== v) {
      s.asked = v;
      s.askedAt = Date.now();
      s.report("moved", v);
    }
  } catch (e) {
    // the server restarting or the network gone: the next second asks again
  } finally {
    s.busy = false;
  }
}
