if (!window.__mpLoadPlotly) {
  window.__mpLoadPlotly = (src) => {
    if (!window.__mpPlotly) {
      window.__mpPlotly = new Promise((resolve, reject) => {
        if (window.Plotly) { resolve(window.Plotly); return; }
        const s = document.createElement("script");
        s.src = src;
        s.async = true;
        s.onload = () => resolve(window.Plotly);
        s.onerror = () => { window.__mpPlotly = null; reject(new Error(`plotly.js did not load from ${src}`)); };
        document.head.appendChild(s);
      });
    }
    return window.__mpPlotly;
  };
}
