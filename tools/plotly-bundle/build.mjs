// Builds the app's plotly.js bundle: `npm ci && npm run build` in this folder writes
// ../../static/plotly-app.min.js (or the path given as the first argument).
//
// What the bundle leaves out of plotly.js's cartesian bundle: the trace types the app does
// not draw and the world-calendars component, and (as plotly.js's own dist bundles do) the
// attributes' description strings, which only the plot-schema documentation reads: each is
// replaced by an empty string literal, so the code around it stays what it was.
import * as esbuild from 'esbuild';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { version } = require('plotly.js/package.json');
const out = process.argv[2] || '../../static/plotly-app.min.js';

const STRING = String.raw`'(?:[^'\\\n]|\\.)*'`;
const DESCRIPTIONS = [
  // description: ['...', '...'].join(' ')
  [/\bdescription: \[[\s\S]*?\]\.join\([^)]*\)/g, "description: ''"],
  // description: '...' (+ '...')*
  [new RegExp(String.raw`\bdescription: ${STRING}(?:\s*\+\s*${STRING})*`, 'g'), "description: ''"],
];

const withoutDescriptions = {
  name: 'without-descriptions',
  setup(build) {
    build.onLoad({ filter: /plotly\.js[\\/]src[\\/].*\.js$/ }, async (args) => {
      let code = await readFile(args.path, 'utf8');
      for (const [pattern, replacement] of DESCRIPTIONS) code = code.replace(pattern, replacement);
      return { contents: code, loader: 'js' };
    });
  },
};

await esbuild.build({
  entryPoints: ['entry.js'],
  bundle: true,
  minify: true,
  format: 'iife',
  globalName: 'Plotly',
  platform: 'browser',
  // ES2020 as written: lowered to ES2017, the source's object spreads become helper calls
  // and Plotly.react runs slower in a page (benchmarks/results_pages.md)
  target: 'es2020',
  define: { global: 'window' },
  loader: { '.css': 'empty' },  // maplibre's stylesheet, required for map traces only
  legalComments: 'eof',
  banner: {
    // the first line asks Chromium (136 on) to compile every function as the file streams in,
    // off the main thread, not each on its first call while the first chart is drawn
    js: '//# allFunctionsCalledOnLoad\n' +
        `/**\n* plotly.js (app: scatter, bar, heatmap, contour - minified) v${version}\n` +
        '* Copyright 2012-2026, Plotly, Inc.\n* All rights reserved.\n' +
        '* Licensed under the MIT license\n' +
        '* Built by tools/plotly-bundle (entry.js, build.mjs) of this repository\n*/',
  },
  outfile: out,
  plugins: [withoutDescriptions],
  logLevel: 'warning',
});
