// Sums a sampling heap profile (bench/lib/alloc-sampling.cjs) by site, per topup:
//   node bench/lib/alloc-summary.cjs /tmp/alloc.heapprofile <topups in the window> [rows=30]
// Two listings: by the allocating function itself, and by the nearest of the service's own functions on its stack
// (dist/ outside node_modules), which says which step of a request asked for the bytes, whatever library made them.
'use strict';
const fs = require('fs');

const [file, topupsText, rowsText] = process.argv.slice(2);
const topups = Number(topupsText);
if (!file || !(topups > 0)) {
  console.error('usage: node bench/lib/alloc-summary.cjs <profile> <topups> [rows]');
  process.exit(2);
}
const rows = Number(rowsText ?? 30);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const shortUrl = (url) => url.replace(/^.*\/node_modules\//, '~/').replace(/^.*\/dist\//, 'dist/');
const siteOf = (frame) =>
  `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '(native)'}`;
const isServiceFrame = (frame) => frame.url.includes('/dist/') && !frame.url.includes('/node_modules/');

const bySelf = new Map();
const byServiceStep = new Map();
let total = 0;
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);

(function walk(node, nearestService) {
  const frame = node.callFrame;
  const step = isServiceFrame(frame) ? siteOf(frame) : nearestService;
  if (node.selfSize > 0) {
    total += node.selfSize;
    add(bySelf, siteOf(frame), node.selfSize);
    add(byServiceStep, step ?? '(no service frame: runtime, driver or HTTP callbacks)', node.selfSize);
  }
  for (const child of node.children ?? []) walk(child, step);
})(profile.head, undefined);

const kb = (bytes) => (bytes / topups / 1024).toFixed(2).padStart(7);
const list = (title, map) => {
  console.log(`\n${title}`);
  for (const [site, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`${kb(bytes)} KB  ${site}`);
};
console.log(`${kb(total)} KB allocated per topup (${topups} topups, ${(total / 1048576).toFixed(1)} MB sampled)`);
list('by allocating function', bySelf);
list("by the service's own nearest function", byServiceStep);
