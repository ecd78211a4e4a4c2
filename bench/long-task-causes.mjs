// What made each long task of a page load: a Chromium performance trace (trace events with the main thread's CPU
// profile) read into the tasks over 50 ms on the page's main thread, each with the kind of work the browser ran it as
// (a timer, an idle callback, a script's evaluation, layout …), the scripts and named functions its time went to, and
// a cause in a few words where the evidence is clear ("unclear" otherwise). `npm run bench:long-tasks` and
// `npm run bench` print them (docs/performance.md, "Long tasks on a phone"). No I/O here: bench/lib.mjs takes the
// trace, tests/unit/long-task-causes.test.ts feeds a hand-made one.

/**
 * A Chromium trace event, as far as the analysis reads one (`args` differs by event name).
 * @typedef {{
 *   name: string, ph?: string, pid: number, tid: number, ts: number, dur?: number, id?: string,
 *   args?: {
 *     fileName?: string,
 *     data?: {
 *       url?: string, type?: string, functionName?: string, isLoadingMainFrame?: boolean, documentLoaderURL?: string,
 *       startTime?: number, timeDeltas?: number[],
 *       cpuProfile?: { nodes?: ProfileNode[], samples?: number[] },
 *     },
 *   },
 * }} TraceEvent
 * @typedef {TraceEvent & { dur: number }} Span A trace event with a duration (`ph: 'X'`).
 * @typedef {{ id: number, parent?: number, callFrame: CallFrame }} ProfileNode
 * @typedef {{ functionName: string, url?: string, lineNumber?: number, columnNumber?: number }} CallFrame
 * @typedef {{ name: string, url: string, role: string }} Frame
 * @typedef {{ ts: number, id: number, frames?: Frame[] }} Sample
 * @typedef {{ role: string, source: string }} Script
 * @typedef {Map<string, Script>} Scripts
 * @typedef {ReturnType<typeof describe>} TaskFindings What describe() finds in a task, for causeOf.
 * @typedef {TaskFindings & { cause: string }} LongTask
 */

/** A task is long past this (the browser's Long Tasks API and Lighthouse's TBT count what lies beyond it). */
export const longTaskMs = 50;

/**
 * The trace categories the analysis reads: the main thread's tasks and what ran in them (devtools.timeline), the
 * frames, scripts' evaluation (v8.execute, v8), GC, user timing (navigation start) and the sampling CPU profile with
 * its stacks (v8.cpu_profiler). `compile` adds V8's lazy compilation of each function on its first call, which costs
 * the trace itself time (bench:long-tasks --compile).
 * @param {{ compile?: boolean }} [options]
 */
export function traceCategories({ compile = false } = {}) {
  return [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'disabled-by-default-devtools.timeline.frame',
    'v8.execute',
    'v8',
    'disabled-by-default-v8.cpu_profiler',
    'disabled-by-default-v8.gc',
    'blink.user_timing',
    ...(compile ? ['disabled-by-default-v8.compile'] : []),
  ];
}

/**
 * What a script of the page is, from its text: the document is the page's; replay's chunk holds rrweb; a chunk that
 * registers a page (`__NEXT_P`, the Pages Router's) is the page's (or /_app's, which holds the loader that starts the
 * SDK after the load); the SDK's chunks name Sentry many times; Turbopack's runtime (`registerChunk`) instantiates the
 * modules of the chunks loaded before it; the rest is the framework: React and Next.js.
 * @param {string} body
 */
export function scriptRole(body) {
  // The page's document (Lighthouse attributes its parsing to it).
  if (/^\s*<!doctype html/i.test(body)) return 'page';
  if (body.includes('rrweb')) return 'error reporting: replay';
  if (/__NEXT_P\s*\|\|\s*\[\]\)\.push\(/.test(body)) return 'page';
  if ((body.match(/sentry/gi) ?? []).length >= 5) return 'error reporting';
  if (body.includes('registerChunk')) return "framework: Turbopack's runtime";
  return 'framework';
}

/**
 * Every script URL the trace names (evaluated, or in the CPU profile's frames), to look up what each script is.
 * @param {TraceEvent[]} events
 */
export function scriptUrls(events) {
  /** @type {Set<string>} */
  const urls = new Set();
  for (const e of events) {
    const url = e.args?.data?.url;
    if (e.name === 'EvaluateScript' && url) urls.add(url);
    if (e.name === 'ResourceSendRequest' && url && isScript(url)) urls.add(url);
    for (const node of e.name === 'ProfileChunk' ? (e.args?.data?.cpuProfile?.nodes ?? []) : []) {
      if (node.callFrame.url) urls.add(node.callFrame.url);
    }
  }
  return [...urls];
}

const isScript = (/** @type {string | undefined} */ url) => /\.m?js(\?|$)/.test(url ?? '');

/** The file name of a script's URL, without its query (`?dpl=…`). */
export const scriptFile = (/** @type {string | undefined} */ url) =>
  (url ?? '').replace(/\?.*$/, '').replace(/^.*\//, '');

const taskNames = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/**
 * How the browser ran a piece of work, by the trace event it began with.
 * @type {Record<string, ((e: TraceEvent) => string) | undefined>}
 */
const workKinds = {
  EvaluateScript: (e) => `evaluating ${scriptFile(e.args?.data?.url) || 'a script without URL'}`,
  'v8.compile': (e) => `compiling ${scriptFile(e.args?.data?.url) || 'a script'}`,
  'v8.compileModule': (e) => `compiling ${scriptFile(e.args?.fileName) || 'a module'}`,
  'v8.evaluateModule': () => 'evaluating a module',
  TimerFire: () => 'timer',
  FireIdleCallback: () => 'idle callback',
  FireAnimationFrame: () => 'animation frame',
  EventDispatch: (e) => `${e.args?.data?.type ?? ''} event`,
  HandlePostMessage: () => 'message',
  FunctionCall: (e) => `call of ${shortName(e.args?.data?.functionName || 'a function')}`,
  RunMicrotasks: () => 'microtasks',
  ParseHTML: () => 'parsing HTML',
  // The parser's preload scanner requesting the scripts, stylesheet and image the HTML names.
  'HTMLDocumentParser::MaybeFetchQueuedPreloads': () => "the HTML parser's preloads",
  Layout: () => 'layout',
  UpdateLayoutTree: () => 'style',
  ParseAuthorStyleSheet: () => 'parsing a stylesheet',
  Paint: () => 'paint',
  PrePaint: () => 'paint',
  Commit: () => 'paint',
  Layerize: () => 'paint',
  CommitLoad: () => 'committing the navigation',
  'LocalWindowProxy::Initialize': () => "a new document's script context",
  // The trace's own: V8's sampling profiler starting in the page (bench/lib.mjs longTaskLoads starts it before).
  'CpuProfiler::StartProfiling': () => "the profiler's start",
  MajorGC: () => 'GC',
  MinorGC: () => 'GC',
};
const evaluation = new Set(['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule']);
const rendering = new Set([
  'Layout',
  'UpdateLayoutTree',
  'ParseAuthorStyleSheet',
  'Paint',
  'PrePaint',
  'Commit',
  'Layerize',
]);
const parsing = new Set(['ParseHTML', 'HTMLDocumentParser::MaybeFetchQueuedPreloads']);
const isGc = (/** @type {string} */ name) =>
  name === 'MajorGC' || name === 'MinorGC' || /^V8\.GC/.test(name) || /^BlinkGC\./.test(name);
/** V8's lazy compilation of a function on its first call (only with traceCategories({ compile: true })). */
const isCompile = (/** @type {string} */ name) => name === 'V8.CompileCode' || name === 'V8.CompileLazy';

/**
 * The SDK's steps, told apart by the names that survive minification: methods and object-literal functions keep
 * theirs (`init`, `addIntegration`, `afterAllSetup`, `startRecording`), module-level functions are mangled. Each
 * matches a stack (leaf first) of a CPU profile sample; a sample counts for the first step it matches. `in` says which
 * scripts the named frame must be in. Why these names mean these steps:
 * - the app adds BrowserTracing, Breadcrumbs and Replay with addIntegration, in tasks of their own
 *   (packages/foundation/src/observability/browser/reporter.ts); of the SDK chunk's two, only BrowserTracing has an
 *   `afterAllSetup`, and Replay's is in replay's chunk;
 * - replay's `afterAllSetup` starts it: `_initialize` → `initializeSampling` → `startRecording`, where rrweb takes the
 *   first full snapshot of the page;
 * - replay's event buffer hands each event to its compression worker (`_sendEventToWorker`, its `postMessage`), and a
 *   flush asks the worker to finish (`_finishRequest`);
 * - an idle span's end (the page load's transaction: the page navigates nowhere) emits `beforeIdleSpanEnd`, on which
 *   browser tracing turns every performance entry into a span (an anonymous function, named by its hook: frameOf);
 * - the SDK's PerformanceObservers are browser tracing's (web vitals, long animation frames); V8 names a callback by
 *   the expression it is passed in (`…PerformanceObserver.observe…`);
 * - React's `hydrateRoot` is where Next.js's client starts the page; Turbopack's runtime loads the chunks an import()
 *   needs in `loadChunkCached` (a cause only when the task requests scripts: it also waits there on loaded ones).
 */
/** @type {{ cause: string, in: string, names?: string[], match?: (name: string) => boolean }[]} */
const steps = [
  {
    cause: "replay's compression (events to its worker)",
    in: 'error reporting: replay',
    names: [
      '_sendEventToWorker',
      'postMessage',
      '_finishRequest',
      '_ensureWorkerIsLoaded',
      '_switchToCompressionWorker',
    ],
  },
  {
    cause: "replay's start (rrweb's first full snapshot)",
    in: 'error reporting: replay',
    names: [
      'startRecording',
      '_initializeRecording',
      'initializeSampling',
      '_initializeSessionForSampling',
      '_initialize',
      'afterAllSetup',
    ],
  },
  {
    cause: 'sending an envelope',
    in: 'error reporting',
    names: ['sendEnvelope', 'sendEvent', 'sendSession', '_sendEnvelope'],
  },
  {
    cause: "the page load's transaction ending (tracing)",
    in: 'error reporting',
    names: ['on beforeIdleSpanEnd'],
  },
  {
    cause: "browser tracing's PerformanceObserver callback",
    in: 'error reporting',
    match: (name) => name.includes('PerformanceObserver'),
  },
  { cause: "the SDK's init", in: 'error reporting', names: ['init', '_setupIntegrations'] },
  { cause: 'adding an integration', in: 'error reporting', names: ['addIntegration'] },
  { cause: 'the framework (React, Next.js)', in: 'framework', match: (name) => /(^|\.)hydrateRoot$/.test(name) },
  { cause: 'loading chunks', in: "framework: Turbopack's runtime", names: ['loadChunkCached'] },
];

/**
 * The long tasks of the page a trace loaded, on its renderer's main thread, from its navigation start on. `scripts`:
 * the page's scripts by URL, each `{ role, source }` (scriptRole; its text, which names the hooks anonymous functions
 * are registered on). Each task: `startMs` (after navigation start), `ms`, `work` (how the browser ran it), `scripts`
 * and `roles` (where its samples ran, by self time), `functions` (named functions by total and by self time),
 * `steps` (the time of each step told apart), `gcMs`, `compileMs` (lazy compilation, when traced), `cause`; times in
 * ms, as measured (at the CPU slowdown of the load).
 * @param {TraceEvent[]} events
 * @param {Scripts} [scripts]
 */
export function longTaskCauses(events, scripts = new Map()) {
  const page = pageStart(events);
  const thread = events
    .filter((e) => e.pid === page.pid && e.tid === page.tid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const samples = cpuSamples(events, page, scripts);
  return outermost(thread.filter(isTask))
    .filter((task) => task.ts >= page.ts && task.dur > longTaskMs * 1000)
    .map((task) => {
      const findings = describe(task, thread, samples, scripts, page.ts);
      return { ...findings, cause: causeOf(findings) };
    });
}

/** @type {(e: TraceEvent) => e is Span} */
const isSpan = (e) => e.ph === 'X' && e.dur !== undefined;
/** @type {(e: TraceEvent) => e is Span} */
const isTask = (e) => isSpan(e) && taskNames.has(e.name);

/**
 * The navigation start of the page (its main frame's last, from an http(s) URL) and its renderer's main thread.
 * @param {TraceEvent[]} events
 * @returns {{ pid: number, tid: number, ts: number }}
 */
function pageStart(events) {
  const start = events
    .filter(
      (e) =>
        e.name === 'navigationStart' &&
        e.args?.data?.isLoadingMainFrame &&
        /^https?:/.test(e.args.data.documentLoaderURL ?? ''),
    )
    .sort((a, b) => a.ts - b.ts)
    .at(-1);
  if (!start) throw new Error('the trace has no navigation start of an http(s) page');
  return { pid: start.pid, tid: start.tid, ts: start.ts };
}

/**
 * Of events sorted by start, those not inside an earlier one (nested run loops nest tasks; GC events nest too).
 * @param {Span[]} sorted
 */
function outermost(sorted) {
  /** @type {Span[]} */
  const kept = [];
  for (const e of sorted) {
    const last = kept.at(-1);
    if (!last || e.ts >= last.ts + last.dur) kept.push(e);
  }
  return kept;
}

/**
 * The main thread's CPU profile samples, in time order, each `{ ts, frames }`: its stack, leaf first, each frame
 * `{ name, url, role }`. The trace holds a profile as a `Profile` event on the thread and `ProfileChunk` events (from
 * the profiler's own thread) with the same id: nodes with parents, samples (node ids) and the µs between samples.
 * @param {TraceEvent[]} events
 * @param {{ pid: number, tid: number }} page
 * @param {Scripts} scripts
 * @returns {(Sample & { frames: Frame[] })[]}
 */
function cpuSamples(events, page, scripts) {
  /** @type {Sample[]} */
  const samples = [];
  for (const profile of events.filter((e) => e.name === 'Profile' && e.pid === page.pid && e.tid === page.tid)) {
    /** @type {Map<number, ProfileNode>} */
    const nodes = new Map();
    let ts = profile.args?.data?.startTime ?? profile.ts;
    const chunks = events
      .filter((e) => e.name === 'ProfileChunk' && e.pid === page.pid && e.id === profile.id)
      .sort((a, b) => a.ts - b.ts);
    for (const chunk of chunks) {
      const { cpuProfile = {}, timeDeltas = [] } = chunk.args?.data ?? {};
      for (const node of cpuProfile.nodes ?? []) nodes.set(node.id, node);
      (cpuProfile.samples ?? []).forEach((id, i) => {
        ts += timeDeltas[i] ?? 0;
        samples.push({ ts, id });
      });
    }
    /** @type {Map<number, Frame[]>} */
    const stacks = new Map();
    /** @type {(id: number) => Frame[]} */
    const stackOf = (id) => {
      let stack = stacks.get(id);
      if (!stack) {
        const node = nodes.get(id);
        const frame = node && frameOf(node.callFrame, scripts);
        stack = node ? [...(frame ? [frame] : []), ...(node.parent ? stackOf(node.parent) : [])] : [];
        stacks.set(id, stack);
      }
      return stack;
    };
    for (const sample of samples) sample.frames ??= stackOf(sample.id);
  }
  return /** @type {(Sample & { frames: Frame[] })[]} */ (samples).sort((a, b) => a.ts - b.ts);
}

/**
 * A profile frame as the analysis names it; undefined for the profile's root.
 * @param {CallFrame} callFrame
 * @param {Scripts} scripts
 * @returns {Frame | undefined}
 */
function frameOf({ functionName, url = '', lineNumber, columnNumber }, scripts) {
  if (functionName === '(root)') return undefined;
  const script = scripts.get(url);
  const name = functionName || hookOf(script?.source, lineNumber, columnNumber) || '(anonymous)';
  return { name, url, role: script?.role ?? '' };
}

/**
 * `on <hook>` for an anonymous function registered on one of the SDK's hooks (`client.on("beforeIdleSpanEnd", t=>…)`):
 * hook names are strings, which minification keeps.
 * @param {string | undefined} source
 * @param {number | undefined} line
 * @param {number | undefined} column
 */
function hookOf(source, line, column) {
  if (!source || line === undefined || column === undefined) return undefined;
  let offset = 0;
  for (let i = 0; i < line; i++) offset = source.indexOf('\n', offset) + 1;
  const hook = /\.on\("([\w-]+)",$/.exec(source.slice(Math.max(0, offset + column - 60), offset + column));
  return hook ? `on ${hook[1]}` : undefined;
}

/** A name a reader can place: not a minifier's (`e`, `iS`, `t.s.r`) nor the profile's own entries. */
const isNamed = (/** @type {string} */ name) =>
  !name.startsWith('(') && name.split('.').some((part) => part.length >= 3);

/**
 * One long task: its trace events (`thread`: the main thread's) and CPU samples, summed up for causeOf.
 * @param {Span} task
 * @param {TraceEvent[]} thread
 * @param {(Sample & { frames: Frame[] })[]} samples
 * @param {Scripts} scripts
 * @param {number} navigationTs
 */
function describe(task, thread, samples, scripts, navigationTs) {
  const end = task.ts + task.dur;
  const all = thread.filter((e) => e.ts >= task.ts && e.ts < end && e !== task && !taskNames.has(e.name));
  // Work with a duration; instant events (a response received, a timer installed) only for a task with none.
  const inside = all.filter(isSpan);
  const sum = (/** @type {Span[]} */ list) => list.reduce((ms, e) => ms + e.dur / 1000, 0);
  const known = outermost(inside.filter((e) => workKinds[e.name]));
  const longest = [...known].sort((a, b) => b.dur - a.dur)[0];
  const evaluated = known.filter((e) => evaluation.has(e.name)).sort((a, b) => b.dur - a.dur)[0];
  const evaluatedUrl = evaluated?.args?.data?.url ?? evaluated?.args?.fileName ?? '';

  // Each sample weighs the time to the next one, within the task.
  const inTask = samples.filter((s) => s.ts >= task.ts && s.ts < end);
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const total = new Map();
  /** @type {Map<string, number>} */
  const byScript = new Map();
  /** @type {Map<string, number>} */
  const byRole = new Map();
  /** @type {Map<string, number>} */
  const byStep = new Map();
  let sampledMs = 0;
  inTask.forEach((sample, i) => {
    const ms = (Math.min(inTask[i + 1]?.ts ?? end, end) - sample.ts) / 1000;
    const [leaf] = sample.frames;
    if (!leaf || leaf.name === '(program)' || leaf.name === '(idle)') return;
    sampledMs += ms;
    add(self, leaf.name, ms);
    for (const name of new Set(sample.frames.map((f) => f.name))) add(total, name, ms);
    // A native function (no URL) counts for the script that called it.
    const owner = sample.frames.find((f) => f.url);
    if (owner) {
      add(byScript, owner.url, ms);
      add(byRole, owner.role, ms);
    }
    const step = steps.find((s) =>
      sample.frames.some((f) => f.role === s.in && (s.match?.(f.name) ?? s.names?.includes(f.name))),
    );
    if (step) add(byStep, step.cause, ms);
  });

  return {
    startMs: round((task.ts - navigationTs) / 1000),
    ms: round(task.dur / 1000),
    work: workOf(longest, task, all),
    evaluation: evaluated && {
      script: scriptFile(evaluatedUrl),
      role: scripts.get(evaluatedUrl)?.role ?? '',
      ms: round(evaluated.dur / 1000),
    },
    sampledMs: round(sampledMs),
    scripts: top(byScript, 3).map(([url, ms]) => ({ script: scriptFile(url), role: scripts.get(url)?.role ?? '', ms })),
    roles: Object.fromEntries(top(byRole, 5)),
    functions: {
      total: top(total, 6, isNamed),
      self: top(self, 4, (name) => isNamed(name) || name === '(garbage collector)'),
    },
    steps: Object.fromEntries(top(byStep, steps.length)),
    addsTracing: sampledUnder(inTask, 'addIntegration', 'afterAllSetup', 'error reporting'),
    // The scripts the task asked for (an import() of chunks not loaded yet).
    requests: all
      .map((e) => (e.name === 'ResourceSendRequest' ? (e.args?.data?.url ?? '') : ''))
      .filter(isScript)
      .map((url) => ({ script: scriptFile(url), role: scripts.get(url)?.role ?? '' })),
    gcMs: round(sum(outermost(inside.filter((e) => isGc(e.name))))),
    renderMs: round(sum(known.filter((e) => rendering.has(e.name)))),
    parseMs: round(sum(known.filter((e) => parsing.has(e.name)))),
    commitsNavigation: known.some((e) => e.name === 'CommitLoad'),
    compileMs: round(sum(outermost(inside.filter((e) => isCompile(e.name))))),
  };
}

/**
 * The longest piece of work the trace names in a task, with its length when it is not most of the task; for a task
 * with none, the first few other events in it, for a reader to place it.
 * @param {Span | undefined} longest
 * @param {Span} task
 * @param {TraceEvent[]} events
 */
function workOf(longest, task, events) {
  const kind = longest && workKinds[longest.name];
  if (longest && kind) {
    const part = longest.dur < task.dur / 2 ? ` (${Math.round(longest.dur / 1000)} ms of it)` : '';
    return `${kind(longest)}${part}`;
  }
  const names = [...new Set(events.map((e) => e.name))].filter((name) => !/RunTask|mojo|Watcher|Epoll/.test(name));
  return `no work the trace names${names.length ? ` (it holds ${names.slice(0, 3).join(', ')})` : ''}`;
}

/**
 * Whether a sample has `inner` (of a script of `role`) called from within `outer`: a stack is leaf first.
 * @param {{ frames: Frame[] }[]} samples
 * @param {string} outer
 * @param {string} inner
 * @param {string} role
 */
function sampledUnder(samples, outer, inner, role) {
  return samples.some((s) => {
    const at = s.frames.findIndex((f) => f.name === outer);
    return at > 0 && s.frames.slice(0, at).some((f) => f.name === inner && f.role === role);
  });
}

/**
 * A task's cause in a few words, from what describe() found: a step (the SDK's, the framework's start, loading
 * chunks) when its frames hold 10 ms and a fifth of the task's samples, or 10 ms of a task whose samples are mostly
 * (60%) in that kind of script (the app's loader runs each of the SDK's steps in a task of its own, and the rest of
 * such a task is the same call's mangled functions and their compilation); the navigation's commit; otherwise the
 * kind of work (GC, a script's evaluation, rendering, parsing, the scripts of one kind) that takes half of the task,
 * or else a third of it and more than any other. "unclear" when none does: on a busy machine part of a task is time
 * the trace does not account for.
 * @param {TaskFindings} task
 * @returns {string}
 */
export function causeOf(task) {
  // Loading chunks only when the task asks for scripts: Turbopack's runtime also waits on chunks already loaded.
  const [step, stepMs] =
    Object.entries(task.steps)
      .filter(([cause]) => cause !== 'loading chunks' || task.requests.length)
      .sort((a, b) => b[1] - a[1])[0] ?? [];
  // The share of the task's samples that ran in the step's kind of script (error reporting's, or the framework's).
  const kind = steps.find((s) => s.cause === step)?.in.split(':')[0];
  const kindMs = Object.entries(task.roles).reduce((ms, [role, t]) => (role.split(':')[0] === kind ? ms + t : ms), 0);
  if (
    step &&
    stepMs !== undefined &&
    stepMs >= 10 &&
    (stepMs >= task.sampledMs / 5 || kindMs >= task.sampledMs * 0.6)
  ) {
    // Of the integrations the app adds in tasks of their own, BrowserTracing has afterAllSetup; Breadcrumbs only setup.
    if (step === 'adding an integration') return task.addsTracing ? 'adding browser tracing' : 'adding breadcrumbs';
    if (step === 'loading chunks') {
      const sdk = task.requests.some((r) => r.role.startsWith('error reporting'));
      return `loading ${sdk ? "error reporting's " : ''}chunks (Turbopack adds their script elements)`;
    }
    return step;
  }
  // The task that commits the navigation also unloads the previous document and creates the new one's script contexts
  // (the page's, and the driver's own: Playwright's utility world).
  if (task.commitsNavigation) return 'the browser: committing the navigation';
  /** @type {[string | undefined, number][]} */
  const kinds = [
    ['garbage collection', task.gcMs],
    [task.evaluation && evaluating(task.evaluation), task.evaluation?.ms ?? 0],
    ['style, layout and paint', task.renderMs],
    ['parsing HTML', task.parseMs],
    ...Object.entries(task.roles).map(([role, ms]) => /** @type {[string, number]} */ ([ranIn(role), ms])),
  ];
  const [largest] = [...kinds].sort((a, b) => b[1] - a[1]);
  const half = kinds.find(([, ms]) => ms >= task.ms / 2);
  if (half) return half[0] ?? 'unclear';
  return largest && largest[1] >= task.ms / 3 ? (largest[0] ?? 'unclear') : 'unclear';
}

/**
 * An evaluation as a cause: Turbopack's runtime instantiates the modules of the chunks before it, each its own.
 * @param {{ script: string, role: string }} evaluation
 */
function evaluating({ script, role }) {
  if (!script) return 'evaluating a script without URL';
  if (role === "framework: Turbopack's runtime") return "evaluating the page's modules (Turbopack's runtime)";
  return `evaluating ${script} (${role || 'a script of no role'})`;
}

/**
 * A task that ran in one kind of script, with no step of its own told apart.
 * @param {string} role
 */
function ranIn(role) {
  if (role.startsWith('framework')) return 'the framework (React, Next.js)';
  if (role === 'page') return "the page's own scripts";
  if (role.startsWith('error reporting')) return `${role}: a step not told apart`;
  return 'unclear';
}

/**
 * @param {Map<string, number>} map
 * @param {string} key
 * @param {number} ms
 */
function add(map, key, ms) {
  map.set(key, (map.get(key) ?? 0) + ms);
}

/**
 * A map's `count` largest entries that pass `keep`, as [key, ms rounded].
 * @param {Map<string, number>} map
 * @param {number} count
 * @param {(key: string) => boolean} [keep]
 * @returns {[string, number][]}
 */
function top(map, count, keep = () => true) {
  return [...map]
    .filter(([key]) => keep(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => [key, round(ms)]);
}

const round = (/** @type {number} */ ms) => Math.round(ms * 10) / 10;

/** A name cut to `length` characters: V8 names some callbacks by the whole expression they are passed in. */
const shortName = (/** @type {string} */ name, length = 40) =>
  name.length > length ? `${name.slice(0, length - 1)}…` : name;

/**
 * A task as three printed lines: when, how long and its cause; the work and the scripts its time went to (self time);
 * its named functions by total time.
 * @param {LongTask} task
 */
export function taskLines(task) {
  const ms = (/** @type {number} */ value) => Math.round(value);
  const scripts = task.scripts.map((s) => `${s.script}${s.role ? ` (${s.role})` : ''} ${ms(s.ms)}`);
  const extra = [
    ...(task.compileMs ? [`compiling ${ms(task.compileMs)} ms`] : []),
    ...(task.gcMs >= 5 ? [`GC ${ms(task.gcMs)} ms`] : []),
  ];
  return [
    `${String(ms(task.startMs)).padStart(6)} ms  ${String(ms(task.ms)).padStart(4)} ms  ${task.cause}`,
    `${' '.repeat(20)}${[task.work, ...extra].join('; ')}${scripts.length ? `; ${scripts.join(', ')} ms` : ''}`,
    ...(task.functions.total.length
      ? [`${' '.repeat(20)}${task.functions.total.map(([name, t]) => `${shortName(name, 32)} ${ms(t)}`).join(', ')} ms`]
      : []),
  ];
}

/**
 * Per cause, over loads (each a list of long tasks): how many tasks, their median and longest duration, and the
 * blocking time (the part of each task beyond 50 ms, as TBT counts it) per load, on average.
 * @param {{ cause: string, ms: number }[][]} loads
 */
export function causeSummary(loads) {
  /** @type {Map<string, number[]>} */
  const byCause = new Map();
  for (const task of loads.flat()) byCause.set(task.cause, [...(byCause.get(task.cause) ?? []), task.ms]);
  return [...byCause]
    .map(([cause, durations]) => ({
      cause,
      tasks: durations.length,
      'median ms': Math.round(median(durations)),
      'max ms': Math.round(Math.max(...durations)),
      'blocking ms per load': Math.round(durations.reduce((sum, ms) => sum + ms - longTaskMs, 0) / loads.length),
    }))
    .sort((a, b) => b['blocking ms per load'] - a['blocking ms per load']);
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ i) => sorted[i] ?? NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}
