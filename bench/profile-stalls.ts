/**
 * Where the service's event loop spends its long busy stretches: reads a V8 CPU profile (`--cpu-prof`) and
 * lists every run of consecutive non-idle samples at least `min-ms` long, with what ran in it, then the totals
 * over all such stretches and over the whole window. A request that arrives during a stretch waits for its end,
 * so these are what p99 at a moderate rate is made of.
 *   npx tsx bench/profile-stalls.ts PROFILE.cpuprofile [min-ms=8] [stretches-shown=15] [last-seconds]
 * (last-seconds: only the profile's end, e.g. the open load after a probe's fill)
 * Each sample is named by its nearest frame of the service's own code (dist/ or src/), else by the package
 * it is in, else by V8's own category ("(garbage collector)", "(program)"); with PROFILE_BY=folder, by the
 * folder of that nearest own frame (application/settlement, infrastructure/read-models, ...).
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Stretch {
  startMs: number;
  lengthMs: number;
  byName: Map<string, number>;
}

const [file, minArg = '8', shownArg = '15', lastArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/profile-stalls.ts PROFILE.cpuprofile [min-ms] [stretches-shown] [last-seconds]');
  process.exit(2);
}
const minimumMs = Number(minArg);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const profileEnd = profile.startTime + profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
const windowStart = lastArg ? profileEnd - Number(lastArg) * 1e6 : profile.startTime;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

function frameLabel(frame: CallFrame): string | null {
  const ownCode = /\/(dist|src)\/(.*)$/.exec(frame.url);
  if (ownCode && !frame.url.includes('node_modules') && process.env.PROFILE_BY === 'folder')
    return ownCode[2].split('/').slice(0, 2).join('/');
  if (ownCode && !frame.url.includes('node_modules'))
    return `${frame.functionName || '(anonymous)'} ${ownCode[2]}:${frame.lineNumber + 1}`;
  return null;
}

function packageOf(url: string): string | null {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return url;
  return null;
}

const labelCache = new Map<number, string>();
/** The sample's name: its nearest own frame, else its nearest package, else its leaf's V8 category. */
function sampleLabel(nodeId: number): string {
  const cached = labelCache.get(nodeId);
  if (cached) return cached;
  const leaf = byId.get(nodeId)!;
  let label: string | null = null;
  let packageLabel: string | null = null;
  for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
    const frame = byId.get(id)!.callFrame;
    label = frameLabel(frame);
    if (label) break;
    packageLabel ??= packageOf(frame.url);
  }
  const result = label ?? (packageLabel ? `[${packageLabel}]` : leaf.callFrame.functionName || '(anonymous)');
  labelCache.set(nodeId, result);
  return result;
}

const isIdle = (nodeId: number): boolean => byId.get(nodeId)!.callFrame.functionName === '(idle)';

const stretches: Stretch[] = [];
let time = profile.startTime;
let current: Stretch | null = null;
let totalMs = 0;
let busyMs = 0;
const whole = new Map<string, number>();
for (let index = 0; index < profile.samples.length; index++) {
  const deltaMs = (profile.timeDeltas[index + 1] ?? 0) / 1000;
  time += profile.timeDeltas[index];
  const nodeId = profile.samples[index];
  if (time < windowStart) continue;
  totalMs += deltaMs;
  if (isIdle(nodeId)) {
    if (current && current.lengthMs >= minimumMs) stretches.push(current);
    current = null;
    continue;
  }
  busyMs += deltaMs;
  current ??= { startMs: (time - profile.startTime) / 1000, lengthMs: 0, byName: new Map() };
  current.lengthMs += deltaMs;
  const label = sampleLabel(nodeId);
  whole.set(label, (whole.get(label) ?? 0) + deltaMs);
  current.byName.set(label, (current.byName.get(label) ?? 0) + deltaMs);
}
if (current && current.lengthMs >= minimumMs) stretches.push(current);

function top(byName: Map<string, number>, count: number, of: number): string[] {
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms ${((100 * ms) / of).toFixed(0).padStart(3)} %  ${name}`);
}

const inStretches = stretches.reduce((sum, stretch) => sum + stretch.lengthMs, 0);
console.log(
  `profile ${(totalMs / 1000).toFixed(1)} s, busy ${((100 * busyMs) / totalMs).toFixed(1)} %; ` +
    `${stretches.length} busy stretches of at least ${minimumMs} ms, ${inStretches.toFixed(0)} ms in all`,
);
const lengths = stretches.map((stretch) => stretch.lengthMs).sort((a, b) => a - b);
if (lengths.length > 0) {
  const at = (q: number): string => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))].toFixed(1);
  console.log(
    `stretch length: median ${at(0.5)} ms, p90 ${at(0.9)} ms, longest ${lengths[lengths.length - 1].toFixed(1)} ms`,
  );
}
for (const stretch of [...stretches].sort((a, b) => b.lengthMs - a.lengthMs).slice(0, Number(shownArg))) {
  console.log(`\nat ${(stretch.startMs / 1000).toFixed(3)} s, ${stretch.lengthMs.toFixed(1)} ms:`);
  console.log(top(stretch.byName, 8, stretch.lengthMs).join('\n'));
}
const overall = new Map<string, number>();
for (const stretch of stretches)
  for (const [name, ms] of stretch.byName) overall.set(name, (overall.get(name) ?? 0) + ms);
console.log(`\nover all stretches:`);
console.log(top(overall, 30, inStretches).join('\n'));
console.log(`\nover the whole window (busy ${busyMs.toFixed(0)} ms):`);
console.log(top(whole, 30, busyMs).join('\n'));
