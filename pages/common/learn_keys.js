// Presentation keys of the Learn page: → / PageDown press "Next", ← / PageUp press "Back".
// The buttons are Streamlit's own (class st-key-learn-next / st-key-learn-back): a key press
// is exactly a click, so the page, its address and AppTest see one way of moving.
export default function (component) {
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
