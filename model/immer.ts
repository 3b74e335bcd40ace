/**
 * The model's own immer. Its steps copy only what they change and never mutate a state they were
 * given, so freezing every new subtree (immer's default, a walk over each one) buys nothing here
 * and costs a tenth of a large search; this instance does not freeze, and leaves the process-wide
 * immer settings, which users' own code relies on, as they are.
 */
import { Immer } from 'immer';

const immer = new Immer({ autoFreeze: false });

export const produce: Immer['produce'] = immer.produce;
