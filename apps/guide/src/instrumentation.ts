import { instrumentationFor } from '@web-foundation/foundation/instrumentation';
import { product } from './product';

export const { register, onRequestError } = instrumentationFor(product);
