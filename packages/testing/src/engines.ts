// Debian's Firefox ESR and WebKitGTK, which Playwright cannot drive (it drives only its own patched builds), behind
// one small interface: the few things the cross-engine tests do with a page (an app's tests/engines/, the sweep).
// Firefox goes through puppeteer-core over WebDriver BiDi; WebKit through its W3C WebDriver server, with a client of a
// few calls over fetch.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { bindable, freePort, killedOnExit as track, until } from './processes.ts';
import { firefoxPath, miniBrowserPath, webkitDriverPath } from './e2e-env.mts';

export type EngineName = 'firefox' | 'webkit';

/** Keys the tests press. */
export type Key = 'Tab' | 'Shift+Tab' | 'Enter';

/** A browser tab of either engine. Selectors are CSS; every call waits for the engine's answer, not for the page. */
export interface EngineTab {
  /** Opens `url` and waits until its document has loaded. */
  goto(url: string): Promise<void>;
  /**
   * Runs `fn` in the page with JSON arguments and returns its JSON result (promises are awaited). It is serialized:
   * it may use only its arguments and the page's globals.
   */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  /**
   * Runs a script's source in the page as the driver's own script, which the page's Content-Security-Policy does not
   * govern (as Playwright's `evaluate`): how a test tool such as axe-core gets into a page that allows no such script.
   */
  inject(source: string): Promise<void>;
  /** Polls `fn` in the page until it returns something truthy, across full navigations; fails after `timeoutMs`. */
  waitFor<A extends unknown[], R>(
    fn: (...args: A) => R,
    args: A,
    options?: { timeoutMs?: number; what?: string },
  ): Promise<R>;
  /** A pointer click in the middle of the element, scrolled into view first. */
  click(selector: string): Promise<void>;
  /** Moves the pointer onto the element. */
  hover(selector: string): Promise<void>;
  press(key: Key): Promise<void>;
  /** Sizes the viewport (the page's inner size). */
  setViewport(width: number, height: number): Promise<void>;
  close(): Promise<void>;
}

export interface EngineBrowser {
  name: EngineName;
  /** The engine's version, as it reports it. */
  version: string;
  newTab(): Promise<EngineTab>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** An expression that calls `fn` with `args` and yields its result as JSON (undefined included). */
const callExpression = (fn: (...args: never[]) => unknown, args: unknown[]) =>
  `Promise.resolve().then(() => (${fn.toString()}).apply(null, ${JSON.stringify(args)}))` +
  `.then((value) => JSON.stringify({ value }))`;

const parseResult = <R>(json: string): R => (JSON.parse(json) as { value: R }).value;

/**
 * Waits until the tab shows `url`, loaded. A driver's own wait can end on the load of the document the tab was
 * still loading when it was asked to leave (seen with Firefox over BiDi after a full navigation).
 */
const loaded = (waitFor: EngineTab['waitFor'], url: string) =>
  waitFor((href) => location.href === href && document.readyState === 'complete', [new URL(url).href], {
    what: `${url} to load`,
  });

/** waitFor, the same for both engines: evaluate fails while a document unloads, so each failure is one more poll. */
function poller(evaluate: EngineTab['evaluate']): EngineTab['waitFor'] {
  return async (fn, args, { timeoutMs = 10_000, what } = {}) => {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    for (;;) {
      try {
        const value = await evaluate(fn, ...args);
        if (value) return value;
      } catch (error) {
        lastError = error;
      }
      if (Date.now() > deadline) {
        const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? fn.toString()}${cause}`);
      }
      await sleep(50);
    }
  };
}

function requireInstalled(path: string, what: string, debianPackage: string) {
  if (!existsSync(path)) {
    throw new Error(
      `${what} is missing (${path}): install it with \`apt-get install -y ${debianPackage}\` (bash .ci/run does).`,
    );
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

// Firefox: puppeteer-core over WebDriver BiDi. Each tab is a browser context of its own (fresh storage).

async function launchFirefox(): Promise<EngineBrowser> {
  requireInstalled(firefoxPath, 'Firefox ESR', 'firefox-esr');
  const browser: PuppeteerBrowser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: firefoxPath,
    headless: true,
    // Firefox's BiDi server, in the tests' range (E2E_FREE_PORTS) rather than one the system picks.
    debuggingPort: await freePort(),
  });
  const firefox = browser.process();
  if (firefox) track(firefox);
  return {
    name: 'firefox',
    version: await browser.version(),
    async newTab() {
      const context = await browser.createBrowserContext();
      return firefoxTab(await context.newPage(), () => context.close());
    },
    close: () => browser.close(),
  };
}

function firefoxTab(page: PuppeteerPage, closeContext: () => Promise<void>): EngineTab {
  const evaluate: EngineTab['evaluate'] = async (fn, ...args) =>
    parseResult(await page.evaluate<[], () => Promise<string>>(callExpression(fn, args)));
  const waitFor = poller(evaluate);
  return {
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
      await loaded(waitFor, url);
    },
    evaluate,
    async inject(source) {
      await page.evaluate(`${source}\n;undefined`);
    },
    waitFor,
    click: (selector) => page.click(selector),
    hover: (selector) => page.hover(selector),
    async press(key) {
      if (key !== 'Shift+Tab') return page.keyboard.press(key);
      await page.keyboard.down('Shift');
      await page.keyboard.press('Tab');
      await page.keyboard.up('Shift');
    },
    setViewport: (width, height) => page.setViewport({ width, height }),
    close: closeContext,
  };
}

// WebKit: WebKitWebDriver, which starts the MiniBrowser, on an X display of its own (Xvfb). One session per worker;
// its one window is shared by the worker's tests (each test's own origin keeps their storage apart).

/** The element reference key of the W3C WebDriver protocol. */
const elementKey = 'element-6066-11e4-a52e-4f735466cecf';
const webDriverKeys: Record<string, string> = { Tab: '\uE004', Enter: '\uE007', Shift: '\uE008' };

class WebDriverError extends Error {}

async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  requireInstalled('/usr/bin/Xvfb', 'Xvfb', 'xvfb');
  // -displayfd: Xvfb picks a free display itself and writes its number to fd 3 once it accepts clients.
  const xvfb = track(
    spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    }),
  );
  let stderr = '';
  xvfb.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    xvfb.stdio[3]?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code} before it started:\n${stderr}`)));
  });
  return { display: `:${display}`, process: xvfb };
}

async function launchWebKit(): Promise<EngineBrowser> {
  requireInstalled(webkitDriverPath, 'WebKitWebDriver', 'webkit2gtk-driver');
  requireInstalled(miniBrowserPath, 'WebKitGTK’s MiniBrowser', 'webkit2gtk-driver');
  const xvfb = await startXvfb();
  // MiniBrowser is started here, its inspector on a port of the tests' range (E2E_FREE_PORTS), and the driver pointed
  // at it: started by the driver, it would listen on a port the system picks.
  const inspectorPort = await freePort();
  const browser = track(
    spawn(miniBrowserPath, ['--automation'], {
      env: { ...process.env, DISPLAY: xvfb.display, WEBKIT_INSPECTOR_SERVER: `127.0.0.1:${inspectorPort}` },
      stdio: ['ignore', 'ignore', 'ignore'],
    }),
  );
  await until("MiniBrowser's inspector", async () => !(await bindable(inspectorPort)), { timeoutMs: 10_000 });
  const port = await freePort();
  const driver = track(
    spawn(webkitDriverPath, [`--port=${port}`, `--target=127.0.0.1:${inspectorPort}`], {
      env: { ...process.env, DISPLAY: xvfb.display },
      stdio: ['ignore', 'ignore', 'ignore'],
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = (await response.json()) as { value: T & { error?: string; message?: string } };
    if (!response.ok) throw new WebDriverError(`WebDriver ${method} ${path}: ${value.error}: ${value.message}`);
    return value;
  };
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(`${base}/status`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('WebKitWebDriver did not start within 10 s');
    await sleep(50);
  }
  const { sessionId, capabilities } = await call<{ sessionId: string; capabilities: { browserVersion: string } }>(
    'POST',
    '/session',
    {
      capabilities: {
        alwaysMatch: { 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] } },
      },
    },
  );
  const session = `/session/${sessionId}`;
  await call('POST', `${session}/timeouts`, { script: 30_000, pageLoad: 30_000, implicit: 0 });
  const windowSize = await call<{ width: number; height: number }>('GET', `${session}/window/rect`);
  return {
    name: 'webkit',
    version: capabilities.browserVersion,
    newTab: async () => webKitTab(call, session, windowSize),
    async close() {
      await call('DELETE', session).catch(() => {});
      await stop(driver);
      await stop(browser);
      await stop(xvfb.process);
    },
  };
}

function webKitTab(
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>,
  session: string,
  windowSize: { width: number; height: number },
): EngineTab {
  const element = async (selector: string) => {
    const found = await call<Record<string, string>>('POST', `${session}/element`, {
      using: 'css selector',
      value: selector,
    });
    return { [elementKey]: found[elementKey] };
  };
  const evaluate: EngineTab['evaluate'] = async (fn, ...args) => {
    const script =
      'const done = arguments[0];' +
      `${callExpression(fn, args)}.then(done, (e) => done(JSON.stringify({ error: String((e && e.stack) || e) })));`;
    const json = await call<string>('POST', `${session}/execute/async`, { script, args: [] });
    const result = JSON.parse(json) as { value?: unknown; error?: string };
    if (result.error !== undefined) throw new Error(`evaluation failed in the page: ${result.error}`);
    return parseResult(json);
  };
  const actions = async (sequence: unknown) => {
    await call('POST', `${session}/actions`, { actions: [sequence] });
    await call('DELETE', `${session}/actions`);
  };
  const waitFor = poller(evaluate);
  return {
    async goto(url) {
      await call('POST', `${session}/url`, { url });
      await loaded(waitFor, url);
    },
    evaluate,
    async inject(source) {
      await call('POST', `${session}/execute/sync`, { script: source, args: [] });
    },
    waitFor,
    async click(selector) {
      const target = await element(selector);
      await call('POST', `${session}/element/${target[elementKey]}/click`, {});
    },
    async hover(selector) {
      const origin = await element(selector);
      await call('POST', `${session}/execute/sync`, {
        script: 'arguments[0].scrollIntoView({ block: "center" })',
        args: [origin],
      });
      await actions({
        type: 'pointer',
        id: 'mouse',
        parameters: { pointerType: 'mouse' },
        actions: [{ type: 'pointerMove', duration: 0, origin, x: 0, y: 0 }],
      });
    },
    async press(key) {
      const keys = key === 'Shift+Tab' ? ['Shift', 'Tab'] : [key];
      const down = keys.map((k) => ({ type: 'keyDown', value: webDriverKeys[k] }));
      const up = [...keys].reverse().map((k) => ({ type: 'keyUp', value: webDriverKeys[k] }));
      await actions({ type: 'key', id: 'keyboard', actions: [...down, ...up] });
    },
    async setViewport(width, height) {
      // WebDriver sizes the window; the toolbar's height comes on top of the viewport's.
      const [viewWidth = 0, viewHeight = 0, windowWidth = 0, windowHeight = 0] = await evaluate(() => [
        innerWidth,
        innerHeight,
        outerWidth,
        outerHeight,
      ]);
      await call('POST', `${session}/window/rect`, {
        width: width + windowWidth - viewWidth,
        height: height + windowHeight - viewHeight,
      });
    },
    // The next test gets the window as the session started: blank, at its first size.
    async close() {
      await call('POST', `${session}/url`, { url: 'about:blank' });
      await call('POST', `${session}/window/rect`, { width: windowSize.width, height: windowSize.height });
    },
  };
}

export function launchEngine(name: EngineName): Promise<EngineBrowser> {
  return name === 'firefox' ? launchFirefox() : launchWebKit();
}
