import { describeApi } from '@web-foundation/foundation/pages/api';
import pkg from '../../../package.json';

export default describeApi(pkg);
