/** The node-remediation operator deleting gracefully: a cut-off node's pods stay Terminating. */
import { nodeRemediation } from './nodeRemediation.js';

export default nodeRemediation({ force: false });
