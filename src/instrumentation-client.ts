import { navigateInFullAfterNewDeployment } from './client/newDeployment';
import { startBrowserReportingAfterLoad } from './observability/loader';

startBrowserReportingAfterLoad();
navigateInFullAfterNewDeployment();
