/**
 * Initial states of a vector model yielded by a generator (or `vectorProduct`) rather than listed:
 * the same counts, depth, verdicts and counterexample paths as the list in every search (the
 * state-vector BFS, the generic BFS and DFS, two worker threads, the distributed search), counts an
 * independent BFS and a closed form give, taken one at a time as the search stores them (a search
 * bounded by maxStates ends on a generator of 10^20 vectors), and replayed traces.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { always, check, KubecheckError, replayPath, simulate, vectorAction, vectorModel, vectorProduct, type CheckOptions, type VectorState } from '../../checker/index.js';
import { checkInMemory } from '../../checker/distributed/index.js';
import { summary } from '../toys/graphArbitraries.js';
import { referenceBfs } from '../toys/referenceBfs.js';
import { cubeModel, odometerModel, type InitialForm, type OdometerArgs } from '../toys/vectorInitial.js';

const TOYS = new URL('../toys/vectorInitial.ts', import.meta.url).href;
const LEVEL = 'KUBECHECK_PARALLEL_LEVEL';

// Workers take over from the first level, so that they search these models' levels.
beforeAll(() => {
  vi.stubEnv(LEVEL, '1');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const FORMS: readonly InitialForm[] = ['list', 'generator', 'product'];

/** The summaries of one odometer, given each way, under `options`. */
function eachForm(args: Omit<OdometerArgs, 'form'>, options: CheckOptions) {
  return FORMS.map((form) => {
    const withWorkers = (options.workers ?? 1) > 1 ? { modelFactory: { module: TOYS, export: 'odometerModel', args: { ...args, form } } } : {};
    const r = check(odometerModel({ ...args, form }), { ...options, ...withWorkers });
    return { engine: r.stats.engine, ...summary(r) };
  });
}

describe('initial vectors from a generator', () => {
  const args = { n: 4, k: 5, invariant: true };

  it('should give the listed model\'s counts, depth, verdict and paths in BFS, DFS and with 2 workers', () => {
    const ref = referenceBfs(odometerModel({ ...args, form: 'list' }));
    for (const options of [{}, { engine: 'generic' }, { strategy: 'dfs' }, { workers: 2 }] satisfies CheckOptions[]) {
      const [list, generator, product] = eachForm(args, options);
      expect(generator).toEqual(list);
      expect(product).toEqual(list);
      expect(list.verdict).toBe('violation');
    }
    // The whole space, as the independent BFS counts it, every search and form alike.
    for (const options of [{}, { engine: 'generic' }, { strategy: 'dfs' }, { workers: 2 }] satisfies CheckOptions[]) {
      for (const r of eachForm(args, { ...options, properties: [] })) {
        expect([r.distinct, r.generated]).toEqual([ref.distinct, ref.generated]);
        if (options.strategy !== 'dfs') expect(r.depth).toBe(ref.levels.length);
      }
    }
    expect(ref.levels[0]).toHaveLength(313); // 5^4 counters, those of even sum
    expect(eachForm(args, {}).map((r) => r.engine)).toEqual(['state-vector', 'state-vector', 'state-vector']);
    expect(eachForm(args, { workers: 2 }).map((r) => r.engine)).toEqual(['parallel', 'parallel', 'parallel']);
  });

  it('should give the listed model\'s result in the distributed search', async () => {
    const list = check(odometerModel({ ...args, form: 'list' }));
    for (const form of ['generator', 'product'] as const) {
      const many = await checkInMemory(odometerModel({ ...args, form }), {}, 2, { seed: 1, maxDelay: 2 });
      expect(summary(many)).toEqual(summary(list));
      expect(many.stats.engine).toBe('distributed');
    }
  });

  it('should search 117,649 initial states from a generator: the closed form\'s counts, as listing them gives', () => {
    // 7^6 distinct, 7^6 + 6 · 6 · 7^5 generated, depth 1 (every successor is initial).
    const expected = { distinct: 117_649, generated: 117_649 + 6 * 6 * 16_807, depth: 1, verdict: 'ok' };
    const counts = (r: ReturnType<typeof check>) => ({ distinct: r.stats.distinctStates, generated: r.stats.generatedStates, depth: r.stats.depth, verdict: r.verdict });
    for (const form of FORMS) expect(counts(check(cubeModel({ n: 6, k: 7, form })))).toEqual(expected);
    expect(counts(check(cubeModel({ n: 6, k: 7, form: 'generator' }), { strategy: 'dfs' }))).toEqual(expected);
    const model = cubeModel({ n: 6, k: 7, form: 'generator' });
    const workers = check(model, { workers: 2, modelFactory: { module: TOYS, export: 'cubeModel', args: { n: 6, k: 7, form: 'generator' } } });
    expect(counts(workers)).toEqual(expected);
  });

  it('should take each initial vector as it stores it, and none past a states bound', () => {
    let made = 0;
    const seen: number[] = [];
    const model = vectorModel({
      name: 'huge-init',
      slots: Array.from({ length: 20 }, (_, i) => ({ name: `d${i}`, size: 10 })),
      // 10^20 initial vectors: listing them, or taking them all, never ends.
      initial: function* () {
        for (const v of vectorProduct(Array.from({ length: 20 }, () => [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))()) {
          made++;
          yield v;
        }
      },
      actions: [vectorAction({ name: 'zero', enabled: (v) => v[19] !== 0, apply: (_v, next) => next.set(19, 0) })],
      properties: [
        always<VectorState>('made-so-far', 'notes how many vectors were made when each state is checked', () => {
          seen.push(made);
          return true;
        }),
      ],
    });
    // (Workers take the initial states as the generic BFS does, on the calling thread, before any level goes to them.)
    for (const options of [{}, { strategy: 'dfs' }, { engine: 'generic' }] satisfies CheckOptions[]) {
      made = 0;
      seen.length = 0;
      const r = check(model, { ...options, maxStates: 1000 });
      expect(r.verdict).toBe('incomplete');
      expect(r.stoppedBy).toEqual({ bound: 'states', limit: 1000 });
      expect(r.stats.distinctStates).toBe(1000);
      // The i-th initial state is checked when i vectors have been made; the search takes one
      // more, which finds the bound (the space goes on), and no other.
      expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(made).toBe(1001);
    }
  });

  it('should replay traces from a generated initial state, and run at random', () => {
    const model = odometerModel({ n: 4, k: 5, form: 'generator', invariant: true });
    const r = check(model);
    const trace = r.properties[0].trace!;
    expect(trace.path.initial).toBeGreaterThan(0);
    expect(replayPath(model, trace.path).states).toEqual(trace.states);
    expect(() => replayPath(model, { initial: 313, steps: [] })).toThrow(/KC006: initial state 313 does not exist \(the model has 313\)/);
    expect(model.initialStates()).toEqual(odometerModel({ n: 4, k: 5, form: 'list' }).initialStates());
    expect(simulate(odometerModel({ n: 4, k: 5, form: 'generator' }), { runs: 5, maxSteps: 20, seed: 1 }).runs).toBe(5);
  });

  it('should refuse a vector out of range when it is yielded, a generator handed out twice, and no vectors at all', () => {
    const spec = { name: 'bad', slots: [{ name: 'x', size: 2 }], actions: [], properties: [] };
    const outOfRange = vectorModel({ ...spec, initial: () => [[0], [2]] });
    expect(() => check(outOfRange)).toThrow(/KC010: model bad: initial vector 1 has 2 in slot x, which holds 0..1/);
    const once = (function* () {
      yield [0];
    })();
    const shared = vectorModel({ ...spec, initial: () => once });
    expect(check(shared).stats.distinctStates).toBe(1);
    expect(() => shared.initialStates()).toThrow(/KC010: model bad: initial\(\) returned the same iterator twice/);
    expect(() => check(vectorModel({ ...spec, initial: () => [] }))).toThrow(/KC002: model bad has no initial state/);
    expect(() => vectorModel({ ...spec, initial: 3 as never })).toThrow(KubecheckError);
  });

  it('should enumerate vectorProduct as TLA+ enumerates x \\in S /\\ y \\in T, last slot fastest, filtered by where', () => {
    const rows = (g: Iterable<VectorState>) => Array.from(g, (v) => Array.from(v));
    expect(rows(vectorProduct([[1, 2], [0], [5, 7]])())).toEqual([[1, 0, 5], [1, 0, 7], [2, 0, 5], [2, 0, 7]]);
    expect(rows(vectorProduct([[0, 1, 2], [0, 1, 2]], (v) => v[0] < v[1])())).toEqual([[0, 1], [0, 2], [1, 2]]);
    expect(rows(vectorProduct([[0, 1], []])())).toEqual([]);
    expect(rows(vectorProduct([])())).toEqual([]);
  });
});
