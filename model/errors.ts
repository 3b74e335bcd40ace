/**
 * Error codes of the Kubernetes model and its configuration (KC1xx). Every code is stable once
 * released; the message is one line naming the field and the rule. Domain outcomes (a property
 * violated) are results, never errors.
 */
import { KubecheckError } from '../checker/errors.js';

export const ModelErrorCode = {
  /** The scenario name is not one of `scenarios` (the message lists the known ones). */
  unknownScenario: 'KC101',
  /** A `--set` key or config-file field is not a parameter (the message lists close keys). */
  unknownParameter: 'KC102',
  /** A duration is negative, has no unit, or is not of the form `10s`, `5m`, `1m30s`, `500ms`. */
  invalidDuration: 'KC103',
  /** A value is malformed for its type (integer, number, boolean, enumeration). */
  invalidValue: 'KC104',
  /**
   * A configuration Kubernetes itself refuses (e.g. client-go's leader-election rules); it can
   * still be explored with `allowUnsafe`.
   */
  refusedByKubernetes: 'KC105',
  /** A value the model cannot represent exactly (e.g. a duration that is not a multiple of the tick). */
  modelLimit: 'KC106',
  /** A cluster shape that makes no sense (e.g. more zones than nodes, a negative fault budget). */
  invalidShape: 'KC107',
  /** A config file that is not an object of sections (e.g. a list, or a section that is a scalar). */
  invalidConfigFile: 'KC108',
  /**
   * A key of user data (a config file, `--set`, a trace's `#meta.config`, a Kubernetes file) is
   * `__proto__`, `constructor` or `prototype`: names that reach JavaScript's own objects, never
   * a parameter or a Kubernetes field the model reads.
   */
  forbiddenKey: 'KC109',
  /** A user's extension threw while the model ran it (its memory, a guard, a step, a description). */
  extensionFailed: 'KC110',
  /**
   * An option a library function (`kubernetesScenario`, `clusterModel`) does not take, such as
   * one that is gone (`extend`, `extraActions`, `urgentActions`: controllers are extensions now);
   * the message names what to use instead.
   */
  unknownOption: 'KC111',
} as const;

/**
 * Refuses (KC111) any key of `options` that `known` does not list, rather than ignore it: an
 * option a function no longer takes would otherwise leave a check silently without the
 * controllers it was meant to add. `gone` says what replaces a removed option.
 */
export function refuseUnknownOptions(fn: string, options: object, known: readonly string[], gone: Readonly<Record<string, string>> = {}): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const instead = Object.hasOwn(gone, key) ? `: ${gone[key]}` : `; it takes ${known.join(', ')}`;
    throw new KubecheckError(ModelErrorCode.unknownOption, `${fn} takes no option "${key}"${instead}`);
  }
}

/** Throws a {@link KubecheckError} with a model error code. */
export function modelError(code: (typeof ModelErrorCode)[keyof typeof ModelErrorCode], message: string): never {
  throw new KubecheckError(code, message);
}
