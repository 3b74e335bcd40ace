/**
 * The Kubernetes manifests of docs/distributed.md (deploy/kubernetes/*.yaml) validate against the
 * Kubernetes API's JSON schemas (kubernetes-models, generated from the Kubernetes OpenAPI), and
 * say what the page says: an Indexed Job of workers that join the coordinator's run, as many as it
 * expects, through the Redis Service, with the Secret's password.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parseRunAddress } from '../../checker/distributed/redis.js';
import { ROOT } from './run.js';

interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly [key: string]: unknown;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment as never,
  'batch/v1 Job': Job as never,
  'v1 Secret': Secret as never,
  'v1 Service': Service as never,
};

function manifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8')).map((d) => d.toJSON() as Manifest);
}

const all = [...manifests('redis.yaml'), ...manifests('run.yaml')];
const byName = (kind: string, name: string) => all.find((m) => m.kind === kind && m.metadata.name === name) as Manifest & { spec: any };

describe('deploy/kubernetes', () => {
  it('should validate every object against the Kubernetes API schema', () => {
    expect(all.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual(['Deployment/kubecheck-redis', 'Job/kubecheck-coordinator', 'Job/kubecheck-workers', 'Secret/kubecheck-redis', 'Service/kubecheck-redis']);
    for (const m of all) {
      const Model = MODELS[`${m.apiVersion} ${m.kind}`];
      expect(Model, `${m.apiVersion} ${m.kind}`).toBeDefined();
      expect(() => new Model(m as never).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
  });

  it('should catch a manifest that breaks the schema (the check can fail)', () => {
    const job = byName('Job', 'kubecheck-workers');
    expect(() => new Job({ ...job, spec: { ...job.spec, completionMode: 'Sharded' } } as never).validate()).toThrow(/completionMode/);
  });

  it('should run as many Indexed workers as the coordinator expects, on the run it coordinates, through the Service', () => {
    const workers = byName('Job', 'kubecheck-workers');
    const coordinator = byName('Job', 'kubecheck-coordinator');
    expect(workers.spec.completionMode).toBe('Indexed');
    expect(workers.spec.parallelism).toBe(workers.spec.completions);
    expect(workers.spec.backoffLimit).toBe(0);
    const wArgs: string[] = workers.spec.template.spec.containers[0].args;
    const cArgs: string[] = coordinator.spec.template.spec.containers[0].args;
    expect(wArgs[0]).toBe('worker');
    expect(cArgs[0]).toBe('check');
    const url = cArgs[cArgs.indexOf('--cluster') + 1];
    expect(wArgs[1]).toBe(url);
    expect(Number(cArgs[cArgs.indexOf('--expect') + 1])).toBe(workers.spec.completions);
    const address = parseRunAddress(url.replace('$(REDIS_PASSWORD)', 'pw'), 'KC200');
    const service = byName('Service', 'kubecheck-redis');
    expect(address).toMatchObject({ host: service.metadata.name, port: service.spec.ports[0].port, password: 'pw', loopback: false });
    const redis = byName('Deployment', 'kubecheck-redis');
    expect(service.spec.selector).toEqual(redis.spec.selector.matchLabels);
  });
});
