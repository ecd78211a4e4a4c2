import { guardClientNavigations } from './client/navigationGuard';
import { startBrowserReportingAfterLoad } from './observability/loader';

startBrowserReportingAfterLoad();
guardClientNavigations();
