import { captureRouterTransitionStart } from '@sentry/nextjs';
import { startBrowserReporting } from './observability/browser';

startBrowserReporting();

export const onRouterTransitionStart = captureRouterTransitionStart;
