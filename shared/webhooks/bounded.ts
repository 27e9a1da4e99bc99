/** The name the fan-out imports the one bounded-concurrency helper by (shared/pipeline/concurrency.ts). */
export { mapLimit as forEachLimit } from '../pipeline/concurrency.js';
