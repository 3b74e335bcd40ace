/**
 * TwoPhase (tlaplus/Examples TwoPhase.tla) as the checker's integration test: the counts must be
 * TLC's published ones, symmetry must count true orbits (checked against a brute-force
 * canonicalisation over all permutations), and the seeded bugs must be found with shortest,
 * replayable, deterministic counterexamples (checked against an independent BFS).
 */
import { describe, it, expect } from 'vitest';
import { setAutoFreeze } from 'immer';
import { check, exactEncoding, replayPath, VectorErrorCode, type CheckResult, type Model } from '../../checker/index.js';
import { consistent, decodeTwoPhase, twoPhaseImmer, twoPhasePlain, twoPhaseVector, type TwoPhaseBug, type TwoPhaseOptions, type TwoPhaseState } from './index.js';
import { referenceBfs, referenceSuccessors, stableKey } from '../../test/toys/referenceBfs.js';

type Factory = (o: TwoPhaseOptions) => Model<TwoPhaseState>;

/**
 * The immer model fingerprinted by the checker's generic encoder (no hand-written `view`), which
 * is what models without a compact key get: the encoder's memoisation over immer's structural
 * sharing is part of what these counts test.
 */
const immerGeneric: Factory = (o) => {
  const { view: _view, ...rest } = twoPhaseImmer(o);
  return rest;
};

/** TLC's figures for TwoPhase.tla (tlaplus/Examples), RM = n model values. */
const TLC = {
  3: { distinct: 288, generated: 1146, depth: 11 },
  5: { distinct: 8832, generated: 58146, depth: 17 },
} as const;

/** Number of symmetry orbits of the reachable states (TLC with `Permutations(RM)`). */
const ORBITS = { 3: 80, 5: 314 } as const;

const holdsConsistentSpec = (s: TwoPhaseState): boolean => (consistent as { holds(s: TwoPhaseState): boolean }).holds(s);

/**
 * One way of writing the spec: how to build it, how to read its states as the spec's variables
 * (a state vector is decoded), and whether it has symmetry reduction.
 */
interface Version {
  readonly name: string;
  make(o: TwoPhaseOptions): Model<unknown>;
  read(s: unknown, n: number): TwoPhaseState;
  readonly symmetry: boolean;
}

const asIs = (s: unknown): TwoPhaseState => s as TwoPhaseState;
const PLAIN: Version = { name: 'twoPhasePlain', make: (o) => twoPhasePlain(o) as Model<unknown>, read: asIs, symmetry: true };
const IMMER: Version = { name: 'twoPhaseImmer', make: (o) => twoPhaseImmer(o) as Model<unknown>, read: asIs, symmetry: true };
const IMMER_GENERIC: Version = { name: 'immerGeneric', make: (o) => immerGeneric(o) as Model<unknown>, read: asIs, symmetry: true };
/** The state-vector model, checked by the state-vector search (`checker/vectorSearch.ts`). */
const VECTOR: Version = {
  name: 'twoPhaseVector',
  make: (o) => twoPhaseVector(o) as unknown as Model<unknown>,
  read: (s, n) => decodeTwoPhase(n, s as Int32Array),
  symmetry: false,
};

function outcome<S>(r: CheckResult<S>, id: string) {
  const o = r.properties.find((p) => p.id === id);
  if (o === undefined) throw new Error(`no outcome for ${id}`);
  return o;
}

/** The shared suite, run for every encoding of the spec. */
function countsSuite(version: Version, sizes: readonly (3 | 5)[]): void {
  const make = (o: TwoPhaseOptions): Model<unknown> => version.make(o);
  for (const n of sizes) {
    it(`should give TLC's counts for n=${n}: ${TLC[n].distinct} distinct, ${TLC[n].generated} generated, depth ${TLC[n].depth}`, () => {
      const r = check(make({ rms: n }));
      expect(r.verdict).toBe('ok');
      expect(r.stoppedBy).toBeUndefined();
      expect(outcome(r, 'consistent').status).toBe('holds');
      expect(r.stats.distinctStates).toBe(TLC[n].distinct);
      expect(r.stats.generatedStates).toBe(TLC[n].generated);
      expect(r.stats.depth).toBe(TLC[n].depth);
    });

    if (!version.symmetry) {
      it(`should refuse symmetry (KC011) rather than ignore it, n=${n}`, () => {
        expect(() => make({ rms: n, symmetry: true })).toThrow(VectorErrorCode.vectorUnsupported);
      });
      continue;
    }
    it(`should count the ${ORBITS[n]} orbits for n=${n} with symmetry and keep the verdict`, () => {
      const on = check(make({ rms: n, symmetry: true }));
      const off = check(make({ rms: n, symmetry: true }), { symmetry: false });
      expect(on.verdict).toBe('ok');
      expect(off.verdict).toBe(on.verdict);
      expect(on.stats.distinctStates).toBe(ORBITS[n]);
      expect(off.stats.distinctStates).toBe(TLC[n].distinct);
      // Symmetry does not change how deep the space goes.
      expect(on.stats.depth).toBe(TLC[n].depth);
    });
  }

  it('should find the commit-on-any-prepared bug with the same 5-step trace as the plain model', () => {
    const r = check(make({ rms: 3, bug: 'commit-on-any-prepared' }));
    const ref = check(twoPhasePlain({ rms: 3, bug: 'commit-on-any-prepared' }));
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'consistent').trace;
    expect(t?.actions).toEqual(outcome(ref, 'consistent').trace?.actions);
    expect(t?.actions).toHaveLength(5);
  });
}

for (const [title, version] of [['plain objects with a compact view', PLAIN], ['a state vector', VECTOR]] as const) {
  describe(`TwoPhase, ${title}`, () => {
    countsSuite(version, [3, 5]);

    it("should give TLC's 296,448 distinct states for n=7", () => {
      const r = check(version.make({ rms: 7 }));
      expect(r.verdict).toBe('ok');
      expect(r.stats.distinctStates).toBe(296_448);
    });
  });
}

describe('TwoPhase with immer, as shipped (its own fingerprint view, if any)', () => {
  countsSuite(IMMER, [3, 5]);
});

// immer's own suites run under every configuration (__tests__/base.js); so do we.
for (const autoFreeze of [true, false]) {
  describe(`TwoPhase with immer, autoFreeze=${autoFreeze}`, () => {
    const withFreeze = <T>(f: () => T): T => {
      setAutoFreeze(autoFreeze);
      try {
        return f();
      } finally {
        setAutoFreeze(true); // immer's default
      }
    };
    const make: Factory = (o) => {
      const m = immerGeneric(o);
      // Every call into the model (initial states, apply) runs under this configuration.
      return {
        ...m,
        initialStates: () => withFreeze(() => m.initialStates()),
        actions: m.actions.map((a) => ({ ...a, apply: (s: TwoPhaseState, p: never) => withFreeze(() => a.apply(s, p)) })),
      };
    };

    countsSuite({ name: `immer-autoFreeze-${autoFreeze}`, make: (o) => make(o) as Model<unknown>, read: asIs, symmetry: true }, [3, 5]);

    it(autoFreeze ? 'should produce frozen successors' : 'should produce unfrozen successors', () => {
      const m = make({ rms: 3 });
      const [first] = referenceSuccessors(m, m.initialStates()[0]);
      expect(Object.isFrozen(first[1])).toBe(autoFreeze);
    });
  });
}

describe('TwoPhase symmetry against brute-force orbits', () => {
  /** Applies a permutation of the RMs: RM i of the result is RM perm[i] of `s`. */
  function permute(s: TwoPhaseState, perm: readonly number[]): TwoPhaseState {
    return {
      rmState: perm.map((i) => s.rmState[i]),
      tmState: s.tmState,
      tmPrepared: perm.map((i) => s.tmPrepared[i]),
      msgs: { prepared: perm.map((i) => s.msgs.prepared[i]), commit: s.msgs.commit, abort: s.msgs.abort },
    };
  }

  function permutations(n: number): number[][] {
    if (n === 0) return [[]];
    return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, k) => [...p.slice(0, k), n - 1, ...p.slice(k)]));
  }

  for (const n of [3, 4]) {
    it(`should count as many states with symmetry as there are orbits, n=${n}`, () => {
      // Arrange: every reachable state (independent BFS), canonicalised as the least exact
      // encoding over all n! permutations: a different method from the model's sorted signatures.
      const perms = permutations(n);
      expect(perms).toHaveLength([1, 1, 2, 6, 24][n]);
      const all = referenceBfs(twoPhasePlain({ rms: n })).levels.flat();
      const orbits = new Set(all.map((s) => perms.map((p) => exactEncoding(permute(s, p))).sort()[0]));

      // Act
      const plain = check(twoPhasePlain({ rms: n, symmetry: true }));
      const immer = check(immerGeneric({ rms: n, symmetry: true }));

      // Assert
      if (n === 3) expect(orbits.size).toBe(ORBITS[3]);
      expect(plain.stats.distinctStates).toBe(orbits.size);
      expect(immer.stats.distinctStates).toBe(orbits.size);
      expect(check(twoPhasePlain({ rms: n })).stats.distinctStates).toBe(all.length);
    });
  }
});

describe('TwoPhase seeded bugs', () => {
  /**
   * Shortest violations of `consistent` (one RM committed while another is aborted):
   * - commit-on-any-prepared, 5 steps. An RM commits only on the Commit message, sent by TMCommit,
   *   which (buggy) needs one RM in tmPrepared (TMRcvPrepared), which needs its Prepared message
   *   (RMPrepare): RMPrepare, TMRcvPrepared, TMCommit, RMRcvCommitMsg commit one RM. Another RM
   *   must abort: RMRcvAbortMsg needs TMAbort, impossible once the TM committed, so it takes
   *   RMChooseToAbort. Five distinct necessary steps, so no shorter path.
   * - rm-commits-on-prepared, 3 steps: RMPrepare sends Prepared, on which (buggy) RMRcvCommitMsg
   *   commits an RM; RMChooseToAbort aborts another.
   */
  const cases: { bug: TwoPhaseBug; length: number; names: string[] }[] = [
    { bug: 'commit-on-any-prepared', length: 5, names: ['RMChooseToAbort', 'RMPrepare', 'RMRcvCommitMsg', 'TMCommit', 'TMRcvPrepared'] },
    { bug: 'rm-commits-on-prepared', length: 3, names: ['RMChooseToAbort', 'RMPrepare', 'RMRcvCommitMsg'] },
  ];

  for (const { bug, length, names } of cases) {
    for (const version of [PLAIN, IMMER, IMMER_GENERIC, VECTOR]) {
      for (const n of [3, 5]) {
        it(`should find ${bug} with a replayable shortest ${length}-step trace (${version.name}, n=${n})`, () => {
          const model = version.make({ rms: n, bug });
          const holdsConsistent = (s: unknown): boolean => holdsConsistentSpec(version.read(s, n));
          const r = check(model);
          expect(r.verdict).toBe('violation');
          const o = outcome(r, 'consistent');
          expect(o.status).toBe('violated');
          const t = o.trace!;
          expect(t.actions).toHaveLength(length);
          expect(t.states).toHaveLength(length + 1);
          expect(t.actions.map((a) => a.name).sort()).toEqual(names);

          // The path replays to the very same states.
          const replayed = replayPath(model, t.path);
          expect(replayed.states.map(stableKey)).toEqual(t.states.map(stableKey));
          expect(replayed.actions).toEqual(t.actions);
          // Each step is a real step of the model (checked without the checker's successor code).
          for (let i = 0; i < t.actions.length; i++) {
            const steps = referenceSuccessors(model, t.states[i]).filter(([name]) => name === t.actions[i].name);
            expect(steps.map(([, s]) => stableKey(s))).toContain(stableKey(t.states[i + 1]));
          }
          // Only the last state violates the invariant.
          expect(holdsConsistent(t.states[length])).toBe(false);
          for (const s of t.states.slice(0, length)) expect(holdsConsistent(s)).toBe(true);
          // The same steps as the plain model's counterexample.
          expect(t.actions).toEqual(outcome(check(twoPhasePlain({ rms: n, bug })), 'consistent').trace?.actions);
        });
      }
    }

    it(`should have no violating state of ${bug} closer than ${length} steps (independent BFS)`, () => {
      const ref = referenceBfs(twoPhasePlain({ rms: 3, bug }));
      const firstBad = ref.levels.findIndex((level) => level.some((s) => !holdsConsistentSpec(s)));
      expect(firstBad).toBe(length);
    });

    it(`should find ${bug} at the same length with and without symmetry`, () => {
      for (const n of [3, 5]) {
        const model = twoPhasePlain({ rms: n, bug, symmetry: true });
        const on = check(model);
        const off = check(model, { symmetry: false });
        expect(on.verdict).toBe('violation');
        expect(off.verdict).toBe('violation');
        expect(outcome(on, 'consistent').trace?.actions).toHaveLength(length);
        expect(outcome(off, 'consistent').trace?.actions).toHaveLength(length);
        // Symmetry only merges fingerprints: the trace is a real path of the model.
        const t = outcome(on, 'consistent').trace!;
        expect(replayPath(model, t.path).states.map(stableKey)).toEqual(t.states.map(stableKey));
        expect(holdsConsistentSpec(t.states.at(-1)!)).toBe(false);
      }
    });

    it(`should give the same ${bug} trace on repeated runs`, () => {
      const runs = [0, 1, 2].map(() => outcome(check(immerGeneric({ rms: 4, bug })), 'consistent').trace!);
      expect(runs[1].path).toEqual(runs[0].path);
      expect(runs[2].path).toEqual(runs[0].path);
      expect(runs[1].actions).toEqual(runs[0].actions);
    });

    it(`should still find ${bug} depth-first, with a trace that replays to a violation`, () => {
      const model = twoPhasePlain({ rms: 3, bug });
      const r = check(model, { strategy: 'dfs' });
      expect(r.verdict).toBe('violation');
      const t = outcome(r, 'consistent').trace!;
      expect(t.actions.length).toBeGreaterThanOrEqual(length);
      const replayed = replayPath(model, t.path);
      expect(holdsConsistentSpec(replayed.states.at(-1)!)).toBe(false);
    });
  }
});

describe('TwoPhase bounds', () => {
  it('should be ok with maxDepth 11 (all levels) and incomplete with 10, n=3', () => {
    const all = check(twoPhasePlain({ rms: 3 }), { maxDepth: 11 });
    expect(all.verdict).toBe('ok');
    expect(all.stoppedBy).toBeUndefined();
    expect(all.stats.distinctStates).toBe(288);

    const cut = check(twoPhasePlain({ rms: 3 }), { maxDepth: 10 });
    expect(cut.verdict).toBe('incomplete');
    expect(cut.stoppedBy).toEqual({ bound: 'depth', limit: 10 });
    expect(outcome(cut, 'consistent').status).toBe('unknown');
    // Levels 1..10 of the independent BFS.
    const ref = referenceBfs(twoPhasePlain({ rms: 3 }));
    expect(cut.stats.distinctStates).toBe(ref.levels.slice(0, 10).flat().length);
  });

  it('should not find a 5-step violation with maxDepth 5 (incomplete, never ok) and find it with 6', () => {
    // A 5-step trace ends on level 6 (levels count the initial state).
    const model = twoPhasePlain({ rms: 3, bug: 'commit-on-any-prepared' });
    const short = check(model, { maxDepth: 5 });
    expect(short.verdict).toBe('incomplete');
    expect(short.stoppedBy?.bound).toBe('depth');
    const enough = check(model, { maxDepth: 6 });
    expect(enough.verdict).toBe('violation');
    expect(outcome(enough, 'consistent').trace?.actions).toHaveLength(5);
  });

  it('should be ok with maxStates at exactly the state count and incomplete with one less', () => {
    const exact = check(twoPhasePlain({ rms: 3 }), { maxStates: 288 });
    expect(exact.verdict).toBe('ok');
    expect(exact.stoppedBy).toBeUndefined();
    const less = check(twoPhasePlain({ rms: 3 }), { maxStates: 287 });
    expect(less.verdict).toBe('incomplete');
    expect(less.stoppedBy).toEqual({ bound: 'states', limit: 287 });
    expect(less.stats.distinctStates).toBe(287);
  });

  it('should stop on a tiny time limit as incomplete', () => {
    const r = check(twoPhasePlain({ rms: 5 }), { timeLimitSeconds: 1e-6 });
    expect(r.verdict).toBe('incomplete');
    expect(r.stoppedBy).toEqual({ bound: 'time', limit: 1e-6 });
    expect(r.stats.distinctStates).toBeLessThan(8832);
    expect(outcome(r, 'consistent').status).toBe('unknown');
  });

  it('should stop on a tiny memory limit as incomplete', () => {
    const r = check(twoPhasePlain({ rms: 5 }), { maxMemoryMB: 1 });
    expect(r.verdict).toBe('incomplete');
    expect(r.stoppedBy).toEqual({ bound: 'memory', limit: 1 });
  });

  it('should report progress with non-decreasing counts', () => {
    const seen: number[] = [];
    check(twoPhasePlain({ rms: 5 }), { onProgress: (p) => seen.push(p.distinctStates), progressIntervalMs: 1e-9 });
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen.at(-1)).toBeLessThanOrEqual(8832);
  });
});

describe('TwoPhase exploration strategies and collisions', () => {
  it('should find the same states and generated count depth-first, n=3 and n=5', () => {
    for (const n of [3, 5] as const) {
      const r = check(immerGeneric({ rms: n }), { strategy: 'dfs' });
      expect(r.strategy).toBe('dfs');
      expect(r.verdict).toBe('ok');
      expect(r.stats.distinctStates).toBe(TLC[n].distinct);
      // A complete search expands every state once, whatever the order.
      expect(r.stats.generatedStates).toBe(TLC[n].generated);
    }
  });

  it('should detect no fingerprint collision on n=5, for both encodings', () => {
    for (const make of [twoPhasePlain, immerGeneric]) {
      const r = check(make({ rms: 5 }), { detectCollisions: true });
      expect(r.stats.collisions).toBe(0);
      expect(r.stats.distinctStates).toBe(8832);
    }
  });

  it('should agree with the independent BFS on every level size, n=4', () => {
    const ref = referenceBfs(twoPhasePlain({ rms: 4 }));
    const r = check(immerGeneric({ rms: 4 }));
    expect(r.stats.distinctStates).toBe(ref.distinct);
    expect(r.stats.generatedStates).toBe(ref.generated);
    expect(r.stats.depth).toBe(ref.levels.length);
    for (let d = 1; d <= ref.levels.length; d++) {
      expect(check(twoPhasePlain({ rms: 4 }), { maxDepth: d }).stats.distinctStates).toBe(ref.levels.slice(0, d).flat().length);
    }
  });
});
