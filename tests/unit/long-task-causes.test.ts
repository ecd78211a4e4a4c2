import { describe, expect, it } from 'vitest';
import { causeSummary, longTaskCauses, scriptRole } from '../../bench/long-task-causes.mjs';

// A hand-made trace of the kind bench/lib.mjs longTaskLoads takes: the page's navigation start, four tasks on its
// renderer's main thread and the CPU profile's samples (µs throughout, as Chromium writes them).
const pid = 7;
const tid = 1;
const navigation = 1_000_000;
const sdk = 'http://localhost:3710/_next/static/chunks/sdk.js?dpl=bench-app';
const replay = 'http://localhost:3710/_next/static/chunks/replay.js?dpl=bench-app';
const ms = (value: number) => value * 1000;
const at = (startMs: number) => navigation + ms(startMs);

/** A task with one piece of work that fills it but for 1 ms at either end. */
function task(startMs: number, durationMs: number, work: string, data: { url?: string } = {}) {
  return [
    { name: 'RunTask', ph: 'X', pid, tid, ts: at(startMs), dur: ms(durationMs) },
    { name: work, ph: 'X', pid, tid, ts: at(startMs + 1), dur: ms(durationMs - 2), args: { data } },
  ];
}

/** Profile nodes: the root, the profile's idle entry, and the idle callback in the SDK's chunk calling init. */
const nodes = [
  { id: 1, callFrame: { functionName: '(root)', url: '' } },
  { id: 2, parent: 1, callFrame: { functionName: '(idle)', url: '' } },
  { id: 3, parent: 1, callFrame: { functionName: 'e', url: sdk, lineNumber: 0, columnNumber: 10 } },
  { id: 4, parent: 3, callFrame: { functionName: 'init', url: sdk, lineNumber: 0, columnNumber: 500 } },
];
// One sample every 10 ms of the idle callback's task (at 300 ms, for 120 ms): the first two in the callback itself, the
// other ten in init; then one idle sample after it.
const samples = [3, 3, ...Array(10).fill(4), 2];
const timeDeltas = [ms(301), ...Array(12).fill(ms(10))];

const events = [
  // An earlier navigation of the same tab (about:blank has no URL) is not the page's.
  {
    name: 'navigationStart',
    ph: 'R',
    pid,
    tid,
    ts: navigation - ms(500),
    args: { data: { documentLoaderURL: '', isLoadingMainFrame: true } },
  },
  {
    name: 'navigationStart',
    ph: 'R',
    pid,
    tid,
    ts: navigation,
    args: { data: { documentLoaderURL: 'http://localhost:3710/examples', isLoadingMainFrame: true } },
  },
  { name: 'Profile', ph: 'P', pid, tid, ts: navigation, id: '0x1', args: { data: { startTime: navigation } } },
  {
    name: 'ProfileChunk',
    ph: 'P',
    pid,
    tid: 2,
    id: '0x1',
    ts: at(500),
    args: { data: { cpuProfile: { nodes, samples }, timeDeltas } },
  },
  ...task(100, 80, 'EvaluateScript', { url: replay }),
  // Under 50 ms: not a long task.
  ...task(200, 40, 'TimerFire'),
  ...task(300, 120, 'FireIdleCallback'),
  ...task(600, 60, 'MajorGC'),
];

const scripts = new Map([
  [sdk, { role: 'error reporting', source: '' }],
  [replay, { role: 'error reporting: replay', source: '' }],
]);

describe('the long tasks of a trace and their causes (bench/long-task-causes.mjs)', () => {
  const tasks = longTaskCauses(events, scripts);

  it("finds the tasks over 50 ms after the page's navigation start, with their start and duration", () => {
    expect(tasks.map((t) => [t.startMs, t.ms])).toEqual([
      [100, 80],
      [300, 120],
      [600, 60],
    ]);
  });

  it("tells a chunk's evaluation, the SDK's init in an idle callback and a GC apart", () => {
    expect(tasks.map((t) => [t.work, t.cause])).toEqual([
      ['evaluating replay.js', 'evaluating replay.js (error reporting: replay)'],
      ['idle callback', "the SDK's init"],
      ['GC', 'garbage collection'],
    ]);
  });

  it('puts the samples of a task into its scripts and named functions, in ms', () => {
    const idle = tasks[1]!;
    // 12 samples of 10 ms, the last cut at the task's end (420 ms): 119 ms in the SDK's chunk, 99 of them in init.
    expect(idle.scripts).toEqual([{ script: 'sdk.js', role: 'error reporting', ms: 119 }]);
    expect(idle.functions.total).toEqual([['init', 99]]);
    expect(idle.steps).toEqual({ "the SDK's init": 99 });
    expect(tasks[2]!.gcMs).toBe(58);
  });

  it('sums each cause over loads: tasks, median and longest, the blocking time (beyond 50 ms) per load', () => {
    const secondLoad = [{ ...tasks[1]!, ms: 90 }];
    expect(causeSummary([tasks, secondLoad])).toEqual([
      { cause: "the SDK's init", tasks: 2, 'median ms': 105, 'max ms': 120, 'blocking ms per load': 55 },
      {
        cause: 'evaluating replay.js (error reporting: replay)',
        tasks: 1,
        'median ms': 80,
        'max ms': 80,
        'blocking ms per load': 15,
      },
      { cause: 'garbage collection', tasks: 1, 'median ms': 60, 'max ms': 60, 'blocking ms per load': 5 },
    ]);
  });

  it('says "unclear" when no kind of work holds a third of a task', () => {
    const [unclear] = longTaskCauses([
      ...events.slice(0, 2),
      { name: 'RunTask', ph: 'X', pid, tid, ts: at(100), dur: ms(90) },
      { name: 'ParseHTML', ph: 'X', pid, tid, ts: at(101), dur: ms(20) },
    ]);
    expect([unclear!.work, unclear!.cause]).toEqual(['parsing HTML (20 ms of it)', 'unclear']);
  });
});

describe('what a script of the page is', () => {
  it.each([
    ['/* rrweb */ sentry', 'error reporting: replay'],
    ['(window.__NEXT_P=window.__NEXT_P||[]).push(["/examples",()=>e.r(1)])', 'page'],
    ['Sentry sentry SENTRY sentry sentry', 'error reporting'],
    ['function registerChunk(e){}', "framework: Turbopack's runtime"],
    ['hydrateRoot', 'framework'],
  ])('%s: %s', (body, role) => {
    expect(scriptRole(body)).toBe(role);
  });
});
