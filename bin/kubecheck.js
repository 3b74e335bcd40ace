#!/usr/bin/env node
// The kubecheck command: runs the TypeScript sources through tsx, so `npx kubecheck ...` works
// from a fresh clone after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';

register();
globalThis.__kubecheckBin = true;
await import('../cli/main.ts');
