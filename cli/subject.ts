/**
 * What the command line checks: a family of scenarios with a config, a model built from it and a
 * catalogue of properties. The Kubernetes control plane is the main subject; the two-phase commit
 * example is a second one, so the commands can be tried (and tested) on a classic protocol with
 * a space of a few hundred states. Commands only talk to this interface.
 */
import type { JsonValue, LivenessProperty, Model } from '../checker/index.js';

/** A named starting point. */
export interface ScenarioInfo {
  readonly name: string;
  readonly description: string;
}

/** A parameter settable with `--set key=value` or in a config file. */
export interface ParameterInfo {
  /** Dotted key, e.g. `kubeControllerManager.nodeMonitorGracePeriod`. */
  readonly key: string;
  /** The name Kubernetes gives it, e.g. `--node-monitor-grace-period`. */
  readonly kubernetesName?: string;
  readonly component?: string;
  /** Default as written, e.g. `50s`. */
  readonly defaultValue: string;
  readonly description: string;
}

/** A property in the catalogue. */
export interface PropertyInfo {
  readonly id: string;
  readonly kind: string;
  readonly description: string;
  readonly source?: string;
}

/** A liveness property in the catalogue: what `check --liveness` checks, and under which fairness. */
export interface LivenessInfo {
  readonly id: string;
  /** `eventually`, `always-eventually` or `leads-to`. */
  readonly kind: string;
  readonly description: string;
  /** Which steps the check assumes eventually happen, and which may never. */
  readonly fairness: string;
}

/** Where a config comes from: a parsed file, `--set` pairs, and the unsafe switch. */
export interface ConfigInput {
  readonly file?: unknown;
  readonly set?: Readonly<Record<string, string>>;
  readonly allowUnsafe?: boolean;
}

/** A config resolved for one scenario, and the model it gives. */
export interface Resolved<S = unknown> {
  readonly scenario: string;
  /** The config in JSON form; `resolve(scenario, { file: config })` gives it back. */
  readonly config: JsonValue;
  readonly model: Model<S>;
  /** Property ids checked when none is asked for. */
  readonly defaultProperties: readonly string[];
  /** Properties the default selection leaves out, each with the reason. */
  readonly leftOut?: readonly { readonly id: string; readonly reason: string }[];
  /** Config warnings: what Kubernetes accepts but documents as unsafe. */
  readonly warnings?: readonly string[];
  /** Liveness properties `check --liveness` checks on the whole graph (no symmetry). */
  readonly liveness?: readonly LivenessProperty<S>[];
}

export interface Subject {
  /** `kubernetes` or an example's name. */
  readonly name: string;
  readonly scenarios: readonly ScenarioInfo[];
  parameters(): readonly ParameterInfo[];
  readonly properties: readonly PropertyInfo[];
  /** Liveness properties (`check --liveness`), if the subject has any. */
  readonly liveness?: readonly LivenessInfo[];
  /** Throws a KubecheckError naming a bad field and its rule. */
  resolve(scenario: string, input: ConfigInput): Resolved;
  /** Participants placed first in sequence diagrams, e.g. kubelet, kube-apiserver, etcd. */
  readonly participants?: readonly string[];
}
