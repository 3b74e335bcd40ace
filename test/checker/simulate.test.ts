import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../checker/search.js';
import { fastCheckSeed, minimizeTrace, simulate, traceArbitrary } from '../../checker/simulate.js';
import { action, type Model } from '../../checker/model.js';
import { always, observer } from '../../checker/properties.js';
import { replayPath } from '../../checker/trace.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';

describe('random exploration', () => {
  it('should shrink to a minimal trace on a seeded bug, whatever the seed', () => {
    // commit-on-any-prepared: the shortest violation has 5 steps (RMPrepare, TMRcvPrepared and
    // TMCommit to get a Commit message, RMRcvCommitMsg to commit one RM, RMChooseToAbort for
    // another); rm-commits-on-prepared: 3 (a Prepared message, a commit on it, an abort). BFS
    // confirms both minima independently below.
    for (const [bug, minimum] of [['commit-on-any-prepared', 5], ['rm-commits-on-prepared', 3]] as const) {
      const model = twoPhasePlain({ rms: 3, bug });
      const bfs = check(model).properties[0].trace!;
      expect(bfs.actions).toHaveLength(minimum);
      for (let seed = 1; seed <= 25; seed++) {
        const r = simulate(model, { seed, runs: 200, maxSteps: 60 });
        expect(r.verdict).toBe('violation');
        const trace = r.properties.find((p) => p.id === 'consistent')!.trace!;
        expect(trace.actions).toHaveLength(minimum);
        // The trace is a real behaviour of the model: it replays from its path.
        expect(replayPath(model, trace.path).states).toEqual(trace.states);
      }
    }
  });

  it('should give the same trace and figures for the same seed, and replay a failure from its path', () => {
    const model = twoPhasePlain({ rms: 4, bug: 'commit-on-any-prepared' });
    const a = simulate(model, { seed: 99, runs: 100, maxSteps: 80 });
    const b = simulate(model, { seed: 99, runs: 100, maxSteps: 80 });
    expect(b.properties).toEqual(a.properties);
    expect(b.steps).toBe(a.steps);
    expect(a.replay).toBeDefined();
    const replayed = simulate(model, { seed: 99, runs: 100, maxSteps: 80, replay: a.replay! });
    expect(replayed.properties.find((p) => p.status === 'violated')?.trace).toEqual(a.properties.find((p) => p.status === 'violated')?.trace);
  });

  it('should never say ok, and cover no more states than exist', () => {
    const model = twoPhasePlain({ rms: 3 });
    const r = simulate(model, { seed: 5, runs: 300, maxSteps: 40 });
    expect(r.verdict).toBe('incomplete');
    expect(r.properties[0].status).toBe('unknown');
    expect(r.stats.distinctStates).toBeGreaterThan(50);
    expect(r.stats.distinctStates).toBeLessThanOrEqual(288); // TLC's exhaustive count for n=3
  });

  it('should count symmetric states as orbits when the model has symmetry', () => {
    const r = simulate(twoPhasePlain({ rms: 3, symmetry: true }), { seed: 5, runs: 300, maxSteps: 40 });
    expect(r.stats.distinctStates).toBeLessThanOrEqual(80); // the orbits of n=3
  });

  it('should give the model behaviours as a fast-check arbitrary for plain properties', () => {
    const model = twoPhasePlain({ rms: 3 });
    fc.assert(
      fc.property(traceArbitrary(model, { maxSteps: 30 }), (trace) => {
        expect(trace.states).toHaveLength(trace.actions.length + 1);
        // TCConsistent holds on every state of every behaviour of the correct protocol.
        return trace.states.every((s) => !(s.rmState.includes('committed') && s.rmState.includes('aborted')));
      }),
      { seed: 7, numRuns: 200 },
    );
    // The same arbitrary finds the seeded bug and shrinks it.
    const buggy = twoPhasePlain({ rms: 3, bug: 'rm-commits-on-prepared' });
    const details = fc.check(
      fc.property(traceArbitrary(buggy, { maxSteps: 30 }), (trace) =>
        trace.states.every((s) => !(s.rmState.includes('committed') && s.rmState.includes('aborted')))),
      { seed: 7, numRuns: 500 },
    );
    expect(details.failed).toBe(true);
  });

  it('should refuse bad run counts and seeds with KC003', () => {
    const model = twoPhasePlain({ rms: 2 });
    expect(() => simulate(model, { runs: 0 })).toThrow(/KC003: runs must be a positive integer/);
    expect(() => simulate(model, { maxSteps: -1 })).toThrow(/KC003/);
    expect(() => simulate(model, { seed: 1.5 })).toThrow(/KC003: seed must be an integer/);
  });
  it('should stop at timeLimitSeconds, even inside one long run, and say the time bound stopped it', () => {
    const model = twoPhasePlain({ rms: 3 });
    const started = performance.now();
    const r = simulate(model, { seed: 5, runs: 1_000_000, maxSteps: 2_000, timeLimitSeconds: 0.5 });
    const seconds = (performance.now() - started) / 1000;
    expect(r.verdict).toBe('incomplete');
    expect(r.stoppedBy).toEqual({ bound: 'time', limit: 0.5 });
    expect(r.runs).toBeLessThan(1_000_000);
    expect(seconds).toBeLessThan(10);
    // Seed 1's first run takes hundreds of thousands of steps; with a bound shorter than it, it is cut.
    expect(simulate(model, { seed: 1, runs: 1, maxSteps: 1_000_000 }).steps).toBeGreaterThan(100_000);
    const long = simulate(model, { seed: 1, runs: 1, maxSteps: 1_000_000, timeLimitSeconds: 0.05 });
    expect(long.stoppedBy).toEqual({ bound: 'time', limit: 0.05 });
    // Cut within the run: a small share of the 100,000+ steps it takes unbounded (the bound is
    // read every 256 steps, and how many fit in 50 ms depends on the machine's load).
    expect(long.steps).toBeLessThan(50_000);
    // Without the bound, the same seed runs every run and says nothing stopped it.
    const all = simulate(model, { seed: 5, runs: 50, maxSteps: 50 });
    expect(all.runs).toBe(50);
    expect(all.stoppedBy).toBeUndefined();
    expect(() => simulate(model, { timeLimitSeconds: -1 })).toThrow(/KC003: timeLimitSeconds/);
    expect(() => simulate(model, { timeLimitSeconds: Number.NaN })).toThrow(/KC003/);
  });
});

describe('swarm runs, seeds and coverage', () => {
  interface Outage {
    readonly broken: boolean;
    /** Work steps done while broken since the last repair (saturating at 25). */
    readonly brokenFor: number;
  }
  /**
   * A fault breaks the service and another repairs it; work done while broken piles up. Twenty
   * work steps in a row while broken violate the invariant. Uniform choice repairs about every
   * other step (2^-20 to go twenty without); a swarm run that leaves the repair out finds it.
   */
  const outage: Model<Outage> = {
    name: 'outage',
    initialStates: () => [{ broken: false, brokenFor: 0 }],
    actions: [
      action<Outage>({ name: 'work', apply: (s) => ({ ...s, brokenFor: s.broken ? Math.min(s.brokenFor + 1, 25) : 0 }) }),
      action<Outage>({ name: 'break', enabled: (s) => !s.broken, apply: (s) => ({ ...s, broken: true }) }),
      action<Outage>({ name: 'repair', enabled: (s) => s.broken, apply: () => ({ broken: false, brokenFor: 0 }) }),
    ],
    properties: [
      always<Outage>('short-outages', 'fewer than 20 work steps in one outage', (s) => s.brokenFor < 20),
      observer<Outage, number>({
        id: 'breaks-counted', description: 'an observer whose state is part of the count', initial: () => 0,
        step: (n, _b, a) => (a.name === 'break' ? Math.min(n + 1, 3) : n), holds: () => true,
      }),
    ],
    describeStep: (_b, a) => ({ actor: a.name === 'work' ? 'service' : 'fault', summary: a.name }),
  };

  it('should find with swarm runs what uniform runs miss, for every seed tried', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const uniform = simulate(outage, { seed, runs: 200, maxSteps: 100, swarm: false });
      expect(uniform.verdict).toBe('incomplete');
      const swarm = simulate(outage, { seed, runs: 200, maxSteps: 100 });
      expect(swarm.verdict).toBe('violation');
      expect(swarm.coverage.swarm).toBe(true);
      const trace = swarm.properties.find((p) => p.id === 'short-outages')!.trace!;
      // Minimal: one break and twenty work steps.
      expect(trace.actions.filter((a) => a.name === 'break')).toHaveLength(1);
      expect(trace.actions).toHaveLength(21);
      expect(check(outage).properties.find((p) => p.id === 'short-outages')!.trace!.actions).toHaveLength(21);
    }
  });

  it('should count coverage as check counts, observers included, and say which actions and faults it took', () => {
    const safe: Model<Outage> = { ...outage, properties: outage.properties.slice(1) };
    const whole = check(safe);
    const r = simulate(safe, { seed: 3, runs: 400, maxSteps: 150 });
    expect(r.coverage.distinctStates).toBe(r.stats.distinctStates);
    expect(r.coverage.distinctStates).toBeLessThanOrEqual(whole.stats.distinctStates);
    // Enough runs see the whole small space: the same figure as check's, observer states included.
    expect(r.coverage.distinctStates).toBe(whole.stats.distinctStates);
    const withoutObserver = check({ ...safe, properties: [] });
    expect(whole.stats.distinctStates).toBeGreaterThan(withoutObserver.stats.distinctStates);
    expect(r.coverage).toMatchObject({ actionsTaken: 3, actions: 3 });
    expect(r.coverage.faultSteps).toBeGreaterThan(0);
    expect(r.coverage.faultSteps).toBeLessThan(r.steps);
  });

  it('should keep a seed beyond 32 bits whole, and replay with it', () => {
    const model = twoPhasePlain({ rms: 3, bug: 'commit-on-any-prepared' });
    const big = 12345678901;
    const a = simulate(model, { seed: big, runs: 100, maxSteps: 60 });
    expect(a.seed).toBe(big);
    const b = simulate(model, { seed: big, runs: 100, maxSteps: 60 });
    expect(b.properties).toEqual(a.properties);
    expect(simulate(model, { seed: big, runs: 100, maxSteps: 60, replay: a.replay! }).properties).toEqual(a.properties);
    expect(fastCheckSeed(big)).not.toBe(fastCheckSeed(big + 2 ** 32));
    expect(fastCheckSeed(7)).toBe(7);
    const fresh = simulate(model, { runs: 5, maxSteps: 10 });
    expect(fresh.seed).toBeGreaterThanOrEqual(0);
  });
});

describe('minimizeTrace', () => {
  it('should drop the steps a depth-first counterexample does not need, and leave a shortest one as it is', () => {
    for (const rms of [3, 4, 5]) {
      const model = twoPhasePlain({ rms, bug: 'commit-on-any-prepared' });
      const bfs = check(model).properties[0].trace!;
      const dfs = check(model, { strategy: 'dfs' }).properties[0].trace!;
      expect(dfs.actions.length).toBeGreaterThan(bfs.actions.length);
      const small = minimizeTrace(model, 'consistent', dfs);
      expect(small.actions.length).toBeLessThan(dfs.actions.length);
      expect(small.actions.length).toBe(bfs.actions.length);
      // Still a real behaviour that ends in the violation.
      expect(replayPath(model, small.path).states).toEqual(small.states);
      const last = small.states[small.states.length - 1];
      expect(last.rmState.includes('committed') && last.rmState.includes('aborted')).toBe(true);
      expect(minimizeTrace(model, 'consistent', bfs)).toBe(bfs);
      expect(minimizeTrace(model, 'no-such-property', dfs)).toBe(dfs);
    }
  });
});

describe('random exploration with observers and a numeric key', () => {
  /** x in 0..3 keyed as bytes; `flip` keeps x and moves an observer that counts flips mod 2. */
  const flips = observer<{ x: number }, number>({
    id: 'flips',
    description: 'counts flips mod 2',
    initial: () => 0,
    step: (o, _b, a) => (a.name === 'flip' ? 1 - o : o),
    holds: () => true,
    encode: (o) => String(o),
  });
  const model: Model<{ x: number }> = {
    name: 'flip-counter',
    initialStates: () => [{ x: 0 }],
    actions: [action({ name: 'inc', apply: (s: { x: number }) => ({ x: (s.x + 1) % 4 }) }), action({ name: 'flip', apply: (s: { x: number }) => ({ x: s.x }) })],
    properties: [flips],
    view: (s) => new Uint8Array([s.x]),
  };

  it('should count a state once per observer value, as the exhaustive search does', () => {
    // A run reuses its observers' array step after step: the observers' part of the fingerprint
    // must follow its values, not the array's identity.
    expect(check(model).stats.distinctStates).toBe(8);
    expect(simulate(model, { seed: 1, runs: 200, maxSteps: 30 }).stats.distinctStates).toBe(8);
  });
});
