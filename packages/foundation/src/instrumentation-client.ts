import { guardClientNavigations } from './client/navigationGuard';
import { startBrowserReportingAfterLoad } from './observability/browser/loader';

startBrowserReportingAfterLoad();
guardClientNavigations();
