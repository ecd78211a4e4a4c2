import { captureRouterTransitionStart } from '@sentry/nextjs';
import { navigateInFullAfterNewDeployment } from './client/newDeployment';
import { startBrowserReporting } from './observability/browser';

startBrowserReporting();
navigateInFullAfterNewDeployment();

export const onRouterTransitionStart = captureRouterTransitionStart;
