/**
 * Tolerations as Kubernetes matches them, against the taints the model applies.
 *
 * A pod template's tolerations (`spec.template.spec.tolerations`, a list as written) go through
 * what the API server and the controllers do to them (the DaemonSet controller's
 * `AddOrUpdateDaemonPodTolerations`, then the DefaultTolerationSeconds admission plugin) and are
 * then compiled, once per workload, into what each of the model's six taints means for the pod:
 * for a NoExecute taint the seconds it is tolerated (null: forever, {@link NO_TOLERATION}: not
 * tolerated), for a NoSchedule taint whether it is tolerated. The compilation is exact because
 * the model knows no other taints: matching follows k8s.io/api core/v1 toleration.go
 * (`ToleratesTaint`) and the taint eviction controller's `GetMatchingTolerations` (the *first*
 * toleration that tolerates a taint is the one used, so order matters) and `getMinTolerationTime`
 * (the least seconds among the tolerations used, ≤ 0 at once).
 */
import { NO_TOLERATION, type Taint, type Tolerations } from './state.js';

/** `Toleration.operator`: Equal (also written empty), Exists, and the numeric Lt and Gt. */
export type TolerationOperator = 'Equal' | 'Exists' | 'Lt' | 'Gt';
export const TOLERATION_OPERATORS: readonly TolerationOperator[] = ['Equal', 'Exists', 'Lt', 'Gt'];

/** A taint's effect; a toleration's empty effect matches every effect. */
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** One entry of `spec.tolerations` (core/v1 Toleration), its defaults filled in. */
export interface PodToleration {
  /** Empty: every key (operator Exists). */
  readonly key: string;
  readonly operator: TolerationOperator;
  readonly value: string;
  /** Empty: every effect. */
  readonly effect: TaintEffect | '';
  /** Only with effect NoExecute; null: tolerated forever. */
  readonly tolerationSeconds: number | null;
}

/** A taint as the API holds it. */
interface TaintObject {
  readonly key: string;
  readonly value: string;
  readonly effect: TaintEffect;
}

/**
 * The model's taints as Kubernetes writes them. The node lifecycle controller's and the
 * unschedulable taint have no value; the out-of-service taint is the one the Kubernetes docs give
 * for a non-graceful node shutdown, `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`.
 */
export const TAINT_OBJECTS: Readonly<Record<Taint, TaintObject>> = {
  'not-ready:NoExecute': { key: 'node.kubernetes.io/not-ready', value: '', effect: 'NoExecute' },
  'not-ready:NoSchedule': { key: 'node.kubernetes.io/not-ready', value: '', effect: 'NoSchedule' },
  'out-of-service:NoExecute': { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' },
  'unreachable:NoExecute': { key: 'node.kubernetes.io/unreachable', value: '', effect: 'NoExecute' },
  'unreachable:NoSchedule': { key: 'node.kubernetes.io/unreachable', value: '', effect: 'NoSchedule' },
  'unschedulable:NoSchedule': { key: 'node.kubernetes.io/unschedulable', value: '', effect: 'NoSchedule' },
};

const MODEL_TAINTS = Object.keys(TAINT_OBJECTS) as Taint[];
const NO_SCHEDULE_TAINTS = MODEL_TAINTS.filter((t) => TAINT_OBJECTS[t].effect === 'NoSchedule');

/** strconv.ParseInt(s, 10, 64) succeeds. */
const INT64 = /^[+-]?\d{1,19}$/;

/** `Toleration.ToleratesTaint` (k8s.io/api core/v1 toleration.go). */
export function toleratesTaint(t: PodToleration, taint: TaintObject): boolean {
  if (t.effect !== '' && t.effect !== taint.effect) return false;
  if (t.key !== '' && t.key !== taint.key) return false;
  switch (t.operator) {
    case 'Equal':
      return t.value === taint.value;
    case 'Exists':
      return true;
    case 'Lt':
    case 'Gt': {
      // compareNumericValues: a value that does not parse as an int64 matches nothing.
      if (!INT64.test(t.value) || !INT64.test(taint.value)) return false;
      const a = BigInt(t.value);
      const b = BigInt(taint.value);
      return t.operator === 'Lt' ? b < a : b > a;
    }
  }
}

/** `Toleration.MatchToleration`: the same key, effect, operator and value. */
function matchToleration(a: PodToleration, b: PodToleration): boolean {
  return a.key === b.key && a.effect === b.effect && a.operator === b.operator && a.value === b.value;
}

/** `AddOrUpdateTolerationInPodSpec`: replaces every matching toleration in place, else appends. */
function addOrUpdate(list: readonly PodToleration[], t: PodToleration): PodToleration[] {
  let updated = false;
  const out = list.map((x) => {
    if (!matchToleration(t, x)) return x;
    updated = true;
    return t;
  });
  return updated ? out : [...out, t];
}

const exists = (key: string, effect: TaintEffect, tolerationSeconds: number | null = null): PodToleration => ({ key, operator: 'Exists', value: '', effect, tolerationSeconds });

/**
 * The tolerations the DaemonSet controller gives its pods (pkg/controller/daemon/util
 * `AddOrUpdateDaemonPodTolerations`): not-ready and unreachable NoExecute without seconds, the
 * disk-, memory- and PID-pressure and unschedulable NoSchedule ones (network-unavailable only with
 * hostNetwork, a taint the model never applies).
 */
export function daemonSetTolerations(list: readonly PodToleration[]): PodToleration[] {
  let out = [...list];
  for (const key of ['not-ready', 'unreachable']) out = addOrUpdate(out, exists(`node.kubernetes.io/${key}`, 'NoExecute'));
  for (const key of ['disk-pressure', 'memory-pressure', 'pid-pressure', 'unschedulable']) out = addOrUpdate(out, exists(`node.kubernetes.io/${key}`, 'NoSchedule'));
  return out;
}

/**
 * The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
 * a toleration whose key is not-ready (unreachable) or empty and whose effect is NoExecute or
 * empty counts as the pod's own, whatever its operator and value (so one that matches no taint
 * still stops the default); otherwise a not-ready, then an unreachable, Exists NoExecute
 * toleration with the kube-apiserver's seconds is appended.
 */
export function admitDefaultTolerations(list: readonly PodToleration[], notReadySeconds: number, unreachableSeconds: number): PodToleration[] {
  const own = (key: string): boolean => list.some((t) => (t.key === key || t.key === '') && (t.effect === 'NoExecute' || t.effect === ''));
  const out = [...list];
  if (!own('node.kubernetes.io/not-ready')) out.push(exists('node.kubernetes.io/not-ready', 'NoExecute', notReadySeconds));
  if (!own('node.kubernetes.io/unreachable')) out.push(exists('node.kubernetes.io/unreachable', 'NoExecute', unreachableSeconds));
  return out;
}

/**
 * What a pod's tolerations (after admission) mean for each taint of the model: the first
 * toleration that tolerates a NoExecute taint gives its seconds (none: forever; ≤ 0: 0, evicted at
 * once); a NoSchedule taint is tolerated when any toleration tolerates it.
 */
export function compileTolerations(list: readonly PodToleration[]): Tolerations {
  const noExecute = (taint: Taint): number | null => {
    const used = list.find((t) => toleratesTaint(t, TAINT_OBJECTS[taint]));
    if (used === undefined) return NO_TOLERATION;
    return used.tolerationSeconds === null ? null : Math.max(0, used.tolerationSeconds);
  };
  return {
    unreachable: noExecute('unreachable:NoExecute'),
    notReady: noExecute('not-ready:NoExecute'),
    outOfService: noExecute('out-of-service:NoExecute'),
    noSchedule: NO_SCHEDULE_TAINTS.filter((taint) => list.some((t) => toleratesTaint(t, TAINT_OBJECTS[taint]))),
  };
}

/** The pod's tolerationSeconds for one NoExecute taint of the model. */
function noExecuteSeconds(tol: Tolerations, taint: Taint): number | null {
  if (taint === 'unreachable:NoExecute') return tol.unreachable;
  if (taint === 'not-ready:NoExecute') return tol.notReady;
  return tol.outOfService;
}

/**
 * What the taint eviction controller makes of a node's NoExecute taints for a pod
 * (`processPodOnNode`): undefined when the node has none; {@link NO_TOLERATION} when one is not
 * tolerated (deleted at once); null when all are tolerated forever; else the least seconds.
 */
export function noExecuteToleration(tol: Tolerations, taints: readonly Taint[]): number | null | undefined {
  let out: number | null | undefined;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i];
    if (TAINT_OBJECTS[taint].effect !== 'NoExecute') continue;
    const s = noExecuteSeconds(tol, taint);
    if (s !== null && s < 0) return NO_TOLERATION;
    if (s === null) out ??= null;
    else out = out === undefined || out === null ? s : Math.min(out, s);
  }
  return out;
}

/** Whether a taint of the node stops the pod from being placed there (the TaintToleration filter: NoSchedule and NoExecute). */
export function untoleratedTaint(tol: Tolerations, taints: readonly Taint[]): boolean {
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i];
    if (TAINT_OBJECTS[taint].effect === 'NoSchedule' ? !tol.noSchedule.includes(taint) : (noExecuteSeconds(tol, taint) ?? 0) < 0) return true;
  }
  return false;
}

/** The Tolerations of the shorthand `{ unreachable, notReady }`: no other taint tolerated. */
export function conditionTolerations(unreachable: number | null, notReady: number | null): Tolerations {
  return { unreachable, notReady, outOfService: NO_TOLERATION, noSchedule: [] };
}

/** The NoSchedule taints of the model a pod may tolerate, in the order of `Tolerations.noSchedule`. */
export const NO_SCHEDULE: readonly Taint[] = NO_SCHEDULE_TAINTS;

/**
 * One toleration as Kubernetes writes it (`{ key, operator, value, effect, tolerationSeconds }`,
 * operator defaulting to Equal), refused as the API's validation refuses it
 * (pkg/apis/core/validation `ValidateTolerations`): `refuse(field, problem)` must throw.
 */
export function parseToleration(raw: unknown, refuse: (field: string, problem: string) => never): PodToleration {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) refuse('', `expected a toleration ({ key, operator, value, effect, tolerationSeconds }), got ${JSON.stringify(raw) ?? String(raw)}`);
  const t = raw as Record<string, unknown>;
  for (const k of Object.keys(t)) if (!['key', 'operator', 'value', 'effect', 'tolerationSeconds'].includes(k)) refuse(`.${k}`, 'not a field of a toleration (key, operator, value, effect, tolerationSeconds)');
  const text = (f: string): string => {
    const v = t[f];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') refuse(`.${f}`, `expected a string, got ${JSON.stringify(v)}`);
    return v;
  };
  const key = text('key');
  const op = text('operator') || 'Equal';
  const value = text('value');
  const effect = text('effect');
  if (!TOLERATION_OPERATORS.includes(op as TolerationOperator)) refuse('.operator', `expected Exists or Equal (or Lt, Gt), got ${JSON.stringify(op)}`);
  if (effect !== '' && !TAINT_EFFECTS.includes(effect as TaintEffect)) refuse('.effect', `expected NoSchedule, PreferNoSchedule, NoExecute or empty (every effect), got ${JSON.stringify(effect)}`);
  if (key === '' && op !== 'Exists') refuse('.operator', 'must be Exists when key is empty (a toleration of every taint)');
  if (op === 'Exists' && value !== '') refuse('.value', 'must be empty when operator is Exists');
  let tolerationSeconds: number | null = null;
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) {
    if (typeof t.tolerationSeconds !== 'number' || !Number.isSafeInteger(t.tolerationSeconds)) refuse('.tolerationSeconds', `expected whole seconds, got ${JSON.stringify(t.tolerationSeconds)}`);
    if (effect !== 'NoExecute') refuse('.effect', "must be 'NoExecute' when tolerationSeconds is set");
    tolerationSeconds = t.tolerationSeconds;
  }
  return { key, operator: op as TolerationOperator, value, effect: effect as TaintEffect | '', tolerationSeconds };
}

/** A toleration as a config file writes it (Kubernetes' form, defaults left out). */
export function writtenToleration(t: PodToleration): Record<string, string | number> {
  return {
    ...(t.key === '' ? {} : { key: t.key }),
    operator: t.operator,
    ...(t.value === '' ? {} : { value: t.value }),
    ...(t.effect === '' ? {} : { effect: t.effect }),
    ...(t.tolerationSeconds === null ? {} : { tolerationSeconds: t.tolerationSeconds }),
  };
}
