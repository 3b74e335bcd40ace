/**
 * Acceptance 4 (`etcd-quorum`) and 5 (`component-outage`, the component failure table of
 * reference/control-plane-architecture.txt), each with a node crash.
 */
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

const holdsAll = (status: Record<string, string>): boolean => Object.values(status).every((s) => s === 'holds' || s === 'witnessed');

describe('etcd-quorum', () => {
  it('should let writes proceed with one of 3 members down: the failed node is marked, evicted and replaced', () => {
    const r = run('etcd-quorum');
    expect(r.config.cluster.etcdMembersDownAtStart).toBe(1);
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toMatchObject({ 'writes-need-quorum': 'holds', 'node-marked-unknown': 'witnessed', 'pod-evicted': 'witnessed', 'replacement-running': 'witnessed' });
    expect(holdsAll(r.status)).toBe(true);
  });

  it('should write nothing with two of 3 members down: no node Unknown, no eviction, running pods keep running', () => {
    const r = run('etcd-quorum', { 'cluster.etcdMembersDownAtStart': '2' }, [
      'writes-need-quorum',
      'no-node-unknown',
      'no-pod-evicted',
      'no-replacement-created',
      'running-pods-keep-running',
      'single-leader',
    ]);
    expect(r.result.verdict).toBe('ok');
    expect(holdsAll(r.status)).toBe(true);
  });

  it('should hold writes-need-quorum when members are lost on the way', () => {
    const r = run('etcd-quorum', { 'cluster.etcdMembersDownAtStart': '0', 'faults.etcdMemberLoss': '2', 'faults.nodeCrash': '0' }, ['writes-need-quorum', 'running-pods-keep-running']);
    expect(r.result.verdict).toBe('ok');
  });
});

describe('partial failures', () => {
  it('should keep working when one of two kube-apiserver instances is lost (API Server partial)', () => {
    const r = run('node-failure', { 'cluster.apiservers': '2', 'faults.apiserverLoss': '1' });
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toMatchObject({ 'node-marked-unknown': 'witnessed', 'replacement-running': 'witnessed', 'replacement-within': 'holds' });
  });

  it('should treat a crashed kubelet like a lost node whose containers keep running (kubelet row)', () => {
    const r = run('node-failure', { 'faults.nodeCrash': '0', 'faults.kubeletCrash': '1' }, [
      'statefulset-at-most-one',
      'running-pods-keep-running',
      'pod-evicted',
      'replicaset-extra-copy',
      'replacement-within',
    ]);
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({
      'statefulset-at-most-one': 'holds',
      'running-pods-keep-running': 'holds',
      'pod-evicted': 'witnessed',
      'replicaset-extra-copy': 'witnessed',
      'replacement-within': 'holds',
    });
  });
});

describe('component-outage', () => {
  it('should keep the replacement Pending with the scheduler down while running pods keep running', () => {
    const r = run('component-outage');
    expect(r.config.cluster.outage).toBe('kube-scheduler');
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toMatchObject({
      'replacements-stay-pending': 'holds',
      'running-pods-keep-running': 'holds',
      'pod-evicted': 'witnessed',
      'replacement-pending': 'witnessed',
    });
    // ...and the replacement indeed never runs.
    const within = run('component-outage', {}, ['replacement-running']);
    expect(within.status['replacement-running']).toBe('unwitnessed');
  });

  it('should neither evict nor replace with the controller manager down', () => {
    const r = run('component-outage', { 'cluster.outage': 'kube-controller-manager' });
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toMatchObject({ 'no-node-unknown': 'holds', 'no-pod-evicted': 'holds', 'no-replacement-created': 'holds', 'running-pods-keep-running': 'holds' });
  });

  it('should change nothing in the API with every kube-apiserver down, pods still running', () => {
    const r = run('component-outage', { 'cluster.outage': 'kube-apiserver' });
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toMatchObject({ 'no-node-unknown': 'holds', 'no-pod-evicted': 'holds', 'running-pods-keep-running': 'holds' });
  });
});
