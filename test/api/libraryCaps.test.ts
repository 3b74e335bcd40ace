/**
 * The library has the command line's caps, from the one place they are declared
 * (model/limits.ts, checker/simulate.ts): a scenario or config above a count's bound is refused
 * with the command line's code and words (KC213), and random runs too long to hold in memory with
 * a coded error (KC003), instead of allocating until the process (or the test runner's worker)
 * aborts.
 */
import { describe, expect, it } from 'vitest';
import { action, MAX_SIMULATE_STEPS, simulate, traceArbitrary, type Model } from '../../checker/index.js';
import { expectNoRandomViolation, kubernetesScenario } from '../../api/testing.js';
import { clusterModel, resolveConfig } from '../../api/model.js';
import { countBounds } from '../../model/limits.js';
import { kubecheckAsync, refusal } from '../cli/run.js';

const counter: Model<number> = {
  name: 'counter',
  initialStates: () => [0],
  actions: [action<number>({ name: 'inc', enabled: () => true, apply: (n) => n + 1 })],
  properties: [],
};

describe('the library\'s caps (those of the command line)', () => {
  it('should refuse kubernetesScenario with cluster.nodes 1e9, given in a config or as --set, with KC213', () => {
    for (const input of [{ config: { cluster: { nodes: 1e9 } } }, { set: { 'cluster.nodes': '1000000000' } }, { file: { cluster: { nodes: 1e9 } } }]) {
      expect(refusal(() => kubernetesScenario('node-failure', input))).toMatch(/^KC213: cluster\.nodes \(1000000000\) is above the limit of 64/);
    }
    expect(refusal(() => resolveConfig('node-failure', { set: { 'cluster.nodes': '1000000000' } }))).toMatch(/^KC213: /);
  });

  it('should refuse every count above its bound, and a list of workloads too long, before reading it', () => {
    for (const { key, max } of countBounds()) {
      const [section, name] = key.split('.');
      expect(refusal(() => kubernetesScenario('node-failure', { config: { [section]: { [name]: max + 1 } } })), key).toMatch(new RegExp(`^KC213: ${key.replace(/\./g, '\\.')} \\(${max + 1}\\)`));
    }
    const workloads = Array.from({ length: 9_000 }, (_, i) => ({ name: `w${i}`, kind: 'Deployment', replicas: 1 }));
    expect(refusal(() => kubernetesScenario('node-failure', { config: { cluster: { workloads } } }))).toMatch(/^KC213: cluster\.workloads \(their number\) \(9000\)/);
  });

  it('should refuse a config built by hand above the caps (clusterModel)', () => {
    const base = resolveConfig('node-failure');
    expect(refusal(() => clusterModel({ ...base, cluster: { ...base.cluster, nodes: 1e9 } }))).toMatch(/^KC213: cluster\.nodes \(1000000000\)/);
  });

  it('should say what the command line says, with its code', async () => {
    const cli = await kubecheckAsync(['check', '--scenario', 'node-failure', '--set', 'cluster.nodes=1000000000']);
    expect(cli.code).toBe(2);
    const library = refusal(() => kubernetesScenario('node-failure', { set: { 'cluster.nodes': '1000000000' } }));
    expect(cli.stderr.trim()).toBe(`kubecheck: ${library}`);
  });

  it('should refuse random runs of 1e12 steps with a coded error', async () => {
    await expect(expectNoRandomViolation(counter, { maxSteps: 1e12, runs: 1, log: () => {} })).rejects.toThrow(/^KC003: maxSteps must be at most 1,000,000/);
    expect(refusal(() => simulate(counter, { maxSteps: MAX_SIMULATE_STEPS + 1 }))).toMatch(/^KC003: /);
    expect(refusal(() => traceArbitrary(counter, { maxSteps: 1e12 }))).toMatch(/^KC003: /);
    // At the cap, a run still goes.
    expect(simulate(counter, { maxSteps: MAX_SIMULATE_STEPS, runs: 1, seed: 1, timeLimitSeconds: 30 }).verdict).toBe('incomplete');
  });
});
