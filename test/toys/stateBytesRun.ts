/**
 * Builds `count` states of one shape, keeps them, and prints as JSON what `StateBytes` charges
 * for them against what V8's heap grew by (`--expose-gc`: both heaps read after full
 * collections). Run as a child process with `node --expose-gc --import tsx`.
 */
import { StateBytes } from '../../checker/stateBytes.js';

const shapes: Record<string, (i: number) => unknown> = {
  /** A string of its own (10,000 characters). */
  string: (i) => ({ id: i, text: `${i}:`.padEnd(10_000, 'x') }),
  /** A string of its own past Latin-1 (two bytes a character). */
  twoByte: (i) => ({ id: i, text: JSON.parse(JSON.stringify(`${i}:` + '\u20ac'.repeat(5_000))) as string }),
  /** An array of 200 numbers. */
  numbers: (i) => ({ id: i, xs: Array.from({ length: 200 }, (_, k) => i + k) }),
  /** Twenty small records with numeric fields and shared names. */
  records: (i) => ({ id: i, pods: Array.from({ length: 20 }, (_, k) => ({ phase: k % 2 ? 'Running' : 'Pending', node: i % 5, restarts: k, ready: k % 3 === 0 })) }),
  /** A Map of 50 small records. */
  map: (i) => ({ id: i, m: new Map(Array.from({ length: 50 }, (_, k) => [k, { v: k + i }])) }),
};

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const [shape, countText] = process.argv.slice(2);
const make = shapes[shape];
if (make === undefined) throw new Error(`unknown shape ${shape}`);
const count = Number(countText ?? 20_000);
const sizes = new StateBytes();
const kept: unknown[] = new Array<unknown>(count);
gc();
gc();
const before = process.memoryUsage().heapUsed;
let estimate = 0;
for (let i = 0; i < count; i++) {
  const s = make(i);
  kept[i] = s;
  estimate += sizes.added(s);
}
gc();
gc();
const measured = process.memoryUsage().heapUsed - before;
process.stdout.write(`${JSON.stringify({ shape, count: kept.length, estimate, measured })}\n`);
