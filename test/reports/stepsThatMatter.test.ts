/**
 * The steps that matter of a long counterexample: the faults, every step of the user's own code
 * under test (an operator, given as an extension) and the violating step, however long the trace.
 * A 470-step node failure shows its crash; a user's bug shows the operator's step that causes it,
 * though stock components' routine work surrounds it for a hundred steps.
 */
import { describe, expect, it } from 'vitest';
import { always, check, type CheckResult, type JsonValue } from '../../checker/index.js';
import { kubernetesSubject } from '../../cli/kubernetesSubject.js';
import type { ClusterExtension, ClusterState } from '../../model/index.js';
import { counterexampleBrief } from '../../reports/brief.js';
import { htmlReport } from '../../reports/html.js';
import { stepsThatMatter, timelineSteps } from '../../reports/timeline.js';

interface Memory {
  readonly seconds: number;
  /** When it acted (-1: not yet). */
  readonly actedAt: number;
}
const memoryOf = (s: ClusterState): Memory => s.extensions!['my-operator'] as unknown as Memory;

/** An operator that acts once, any time after 50 s of model time (it counts them, up to 120 s). */
const myOperator: ClusterExtension = {
  name: 'my-operator',
  initial: () => ({ seconds: 0, actedAt: -1 }),
  onTick: (m, _s, seconds) => ({ ...(m as unknown as Memory), seconds: Math.min(120, (m as unknown as Memory).seconds + seconds) }) as unknown as JsonValue,
  actions: [
    {
      name: 'my-operator-act',
      enabled: (s) => memoryOf(s).seconds >= 50 && memoryOf(s).actedAt < 0,
      apply: (s) => ({ ...s, extensions: { ...s.extensions, 'my-operator': { ...memoryOf(s), actedAt: memoryOf(s).seconds } } }),
      describe: () => ({ actor: 'my-operator', summary: 'decides that db-0 must go', to: ['kube-apiserver'] }),
    },
  ],
};

/** No state 50 s after the operator acted: the shortest counterexample acts at 50 s and ends at 100 s. */
const actedLongAgo = always<ClusterState>('acted-long-ago', 'my-operator acted less than 50 s ago, if at all', (s) => memoryOf(s).actedAt < 0 || memoryOf(s).seconds - memoryOf(s).actedAt < 50);

let built: { result: CheckResult<ClusterState>; model: ReturnType<typeof kubernetesSubject.resolve>['model'] } | undefined;
function operatorRun(): NonNullable<typeof built> {
  if (built) return built;
  const r = kubernetesSubject.resolve('node-failure', { set: { 'faults.nodeCrash': '0' } }, [myOperator]);
  const model = { ...r.model, properties: [...r.model.properties, actedLongAgo] } as typeof r.model;
  built = { model, result: check(model, { properties: ['acted-long-ago'] }) as CheckResult<ClusterState> };
  return built;
}

describe('the steps that matter', () => {
  it("should hold the operator's own step of a trace over 100 steps long, in the middle of it", () => {
    const { model, result } = operatorRun();
    const outcome = result.properties[0];
    expect(outcome.status).toBe('violated');
    const steps = timelineSteps(model, outcome.trace!);
    expect(steps.length).toBeGreaterThan(100);
    const acts = steps.filter((s) => s.actor === 'my-operator');
    expect(acts).toHaveLength(1);
    const act = acts[0];
    expect(act.underTest).toBe(true);
    expect(act.fault).toBe(false);
    expect(act.index).toBeGreaterThan(10);
    expect(act.index).toBeLessThan(steps.length - 10);
    // The stock components' steps are not the user's code.
    expect(steps.filter((s) => s.underTest)).toEqual([act]);
    expect(stepsThatMatter(steps).map((s) => s.index)).toEqual([act.index, steps.length]);

    const html = htmlReport(model, result, { command: 'check', scenario: 'node-failure' });
    const key = /<p><b>The steps that matter<\/b> \((\d+) of (\d+)\):<\/p><ol class="key-steps">([\s\S]*?)<\/ol>/.exec(html)!;
    expect(Number(key[2])).toBe(steps.length);
    const items = key[3].match(/<li\b[\s\S]*?<\/li>/g)!;
    expect(items).toHaveLength(2);
    expect(items[0]).toBe(`<li class="ours"><a href="#cx=0&amp;step=${act.index}">${act.index}. T+${act.seconds}s  my-operator  decides that db-0 must go</a></li>`);
    expect(items[1]).toContain('(violates)');
    expect(html).toContain(`<li data-step="${act.index}" class="ours">`);

    // A test runner's failure message names it too.
    const brief = counterexampleBrief(model, outcome.id, outcome.description, outcome.trace!);
    expect(brief).toContain(`    under test T+${act.seconds}s  my-operator  decides that db-0 must go`);
    expect(brief).toContain(`    …          ${steps.length - 2} other steps (in the report)`);
  });
});
