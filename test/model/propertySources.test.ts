/**
 * Every property's source names where its promise is written so a reader can find it: a URL, or
 * a file of a named repository (`kubernetes/kubernetes:pkg/...go`, `kubernetes/client-go:...`),
 * never a file of no repository (a design note kept beside the project) or a bare package path.
 * The Kubernetes files cited were checked against kubernetes/kubernetes (client-go's under
 * staging/src/k8s.io/client-go); the list below is theirs, so a new citation is checked too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run.js';

/** Files of kubernetes/kubernetes (and client-go) the sources cite, each found in the upstream repository. */
const UPSTREAM = new Set([
  'kubernetes/kubernetes:pkg/controller/controller_utils.go',
  'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go',
  'kubernetes/kubernetes:pkg/controller/replicaset/replica_set.go',
  'kubernetes/kubernetes:pkg/controller/statefulset/stateful_set_control.go',
  'kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go',
  'kubernetes/kubernetes:pkg/registry/core/pod/storage/storage.go',
  'kubernetes/client-go:tools/leaderelection/leaderelection.go',
  'kubernetes/apimachinery:pkg/util/wait/backoff.go',
  'kubernetes/apimachinery:pkg/util/wait/wait.go',
  'etcd-io/website:content/en/docs/v3.6/faq.md',
]);

/** The `source:` strings of the properties' declarations. */
function sources(): string[] {
  const dir = join(ROOT, 'properties');
  return readdirSync(dir).filter((f) => f.endsWith('.ts')).flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/source: '((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]));
}

describe('property sources', () => {
  it('should cite URLs or files of named repositories that hold them, never a file outside any repository', () => {
    const all = sources();
    expect(all.length).toBeGreaterThan(15);
    for (const source of all) {
      // Each file cited: a path ending in a file name, after `owner/repo:` or after `;`/`,` within one repository's list.
      let repo: string | undefined;
      for (const part of source.replace(/https?:\/\/\S+/g, '').split(/[;,]\s*/)) {
        const qualified = /([\w.-]+\/[\w.-]+):([\w./-]+)/.exec(part);
        if (qualified) repo = qualified[1];
        const file = qualified?.[2] ?? /(?:^|\s)([\w-]+(?:\/[\w.-]+)*\.(?:go|md))\b/.exec(part)?.[1];
        if (file === undefined || /^properties\//.test(file)) continue;
        expect(repo, `${source}: ${file} names no repository`).toBeDefined();
        expect(UPSTREAM.has(`${repo}:${file}`), `${source}: ${repo}:${file} is not a file the upstream repository holds`).toBe(true);
      }
      // A bare package path (pkg/controller/...) without its repository is not a citation either.
      expect(source, source).not.toMatch(/^pkg\//);
    }
  });
});
