/**
 * What the search charges for the states it stores (`checker/stateBytes.ts`), held against what
 * V8's heap really grew by: 20,000 states of a shape are built and kept in a child process run
 * with `--expose-gc` (`test/toys/stateBytesRun.ts`), whose heap is read after full collections.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateBytes } from '../../checker/stateBytes.js';

const MiB = 2 ** 20;
const toy = (name: string): string => fileURLToPath(new URL(`../toys/${name}`, import.meta.url));

describe('the bytes charged for stored states', () => {
  /** Runs `stateBytesRun.ts`: what StateBytes charged for 20,000 states of a shape, and what the heap grew by. */
  function charged(shape: string): { estimate: number; measured: number } {
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', toy('stateBytesRun.ts'), shape, '20000'], { encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { estimate: number; measured: number };
  }

  it.each(['string', 'twoByte', 'numbers', 'records', 'map'])('should charge states of shape %s within a fifth of what they hold on the heap', (shape) => {
    const { estimate, measured } = charged(shape);
    expect(measured).toBeGreaterThan(10 * MiB);
    expect(estimate / measured).toBeGreaterThan(0.8);
    expect(estimate / measured).toBeLessThan(1.2);
  }, 120_000);

  it('should charge a successor only for what it does not share with its parent', () => {
    const sizes = new StateBytes();
    const text = 'x'.repeat(100_000);
    const parent = { config: { text, replicas: 3 }, pods: [{ phase: 'Pending' }, { phase: 'Pending' }], step: 0 };
    expect(sizes.added(parent)).toBeGreaterThan(100_000);
    // One pod changed: the root, the pods array and one pod are new; the config and text are the parent's.
    const next = { ...parent, pods: [parent.pods[0], { phase: 'Running' }], step: 1 };
    expect(sizes.added(next, parent)).toBeLessThan(300);
    // A pod inserted in front: the others moved one place and are still the parent's.
    const inserted = { ...parent, pods: [{ phase: 'New' }, ...parent.pods] };
    expect(sizes.added(inserted, parent)).toBeLessThan(300);
    // Another long text is charged (a copy with the same characters would not be: strings are
    // compared by value, so an equal one is taken for the parent's).
    const changed = { ...parent, config: { text: text.slice(0, 99_999) + 'z', replicas: 3 } };
    expect(sizes.added(changed, parent)).toBeGreaterThan(100_000);
  });

  it('should walk every successor near the bound (room for fewer than 256 of the last), and far from it charge successors of two sizes their mean', () => {
    const small = { text: 's'.repeat(1_000) };
    const large = { text: 'l'.repeat(100_000) };
    const parent = { text: '' };
    const exact = (i: number): number => new StateBytes().added(i % 2 ? large : small, parent);
    const near = new StateBytes();
    for (let i = 0; i < 100; i++) expect(near.estimate(i % 2 ? large : small, parent, { room: () => 10_000 })).toBe(exact(i));
    // Far from the bound, one successor in sixteen on average is walked, at random gaps: the
    // charges add up to about the true total whatever the period of the sizes.
    const far = new StateBytes();
    let charged = 0;
    let truth = 0;
    for (let i = 0; i < 16_000; i++) {
      charged += far.estimate(i % 2 ? large : small, parent, { room: () => 2 ** 40 });
      truth += exact(i);
    }
    expect(charged / truth).toBeGreaterThan(0.9);
    expect(charged / truth).toBeLessThan(1.1);
  });
});
