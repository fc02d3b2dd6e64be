// Presentation keys of the Learn page: → / PageDown press "Next", ← / PageUp press "Back".
// The buttons are Streamlit's own (class st-key-learn-next / st-key-learn-back): a key press
// is exactly a click, so the page, its address and AppTest see one way of moving.
//
// A new beat opens at its top: Back and Next sit at a beat's foot, and Streamlit keeps the
// scroll position across runs, so a phone would otherwise open the next beat at its task,
// below its title, prose and figure. The same beat drawn again (an answer) keeps its place.
export default function (component) {
  const beat = component.data && component.data.beat;
  const last = window.__learnBeatShown;
  window.__learnBeatShown = beat;
  if (beat && last !== undefined && last !== beat) toTop(component.parentElement);
  if (window.__learnKeysOn) return;
  window.__learnKeysOn = true;
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    // keys that move a control (a slider, a radio, a text box) stay with it
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) ||
              (t.closest && t.closest('[role="slider"], [role="radiogroup"], [role="spinbutton"], [role="textbox"]')))) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    let which = null;
    if (e.key === "ArrowRight" || e.key === "PageDown") which = "next";
    else if (e.key === "ArrowLeft" || e.key === "PageUp") which = "back";
    if (!which) return;
    const b = document.querySelector(`.st-key-learn-${which} button`);
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
  });
}

// Scroll every scrolling box that holds the page (Streamlit's main area), and the window.
function toTop(from) {
  let el = from instanceof ShadowRoot ? from.host : from;
  for (; el; el = el.parentElement) {
    if (el.scrollTop > 0) el.scrollTop = 0;
  }
  window.scrollTo(0, 0);
}
