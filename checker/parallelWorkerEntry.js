// Entry of a parallel-search worker thread: registers tsx (the checker is TypeScript, run without
// a build step) and loads the worker. Resolving tsx from here, not from the working directory,
// lets it work wherever kubecheck is installed.
import { register } from 'tsx/esm/api';

register();
await import('./parallelWorker.ts');
