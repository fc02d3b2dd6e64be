// The trace types the app draws (tests/browser/test_browser_charts.py checks that this is all of
// them): plotly.js's core registers scatter; bar, heatmap and contour are added here. No
// calendars component (the app's axes are numbers), no other trace type.
var Plotly = require('plotly.js/lib/core');

Plotly.register([
    require('plotly.js/lib/bar'),
    require('plotly.js/lib/heatmap'),
    require('plotly.js/lib/contour'),
]);

module.exports = Plotly;
