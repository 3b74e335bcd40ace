/** Which subject a scenario belongs to, and the config resolved for it from the command line. */
import { fail, ToolErrorCode } from '../reports/errors.js';
import { readConfigFile } from './input.js';
import { kubernetesSubject } from './kubernetesSubject.js';
import { refuseOversizedCluster } from './limits.js';
import type { Resolved, Subject } from './subject.js';
import { twoPhaseSubject } from './twoPhaseSubject.js';

/** Every subject: Kubernetes first (its first scenario is the default), then the examples. */
const SUBJECTS: readonly Subject[] = [kubernetesSubject, twoPhaseSubject];

export async function allSubjects(): Promise<readonly Subject[]> {
  return SUBJECTS;
}

/** The subject of `scenario` (default: the first Kubernetes scenario, node-failure). KC209 lists the known ones. */
export async function subjectOf(scenario: string | undefined): Promise<{ subject: Subject; scenario: string }> {
  if (scenario === undefined) return { subject: kubernetesSubject, scenario: kubernetesSubject.scenarios[0].name };
  const owner = SUBJECTS.find((s) => s.scenarios.some((x) => x.name === scenario));
  if (!owner) {
    const known = SUBJECTS.flatMap((s) => s.scenarios.map((x) => x.name));
    fail(ToolErrorCode.unknownScenario, `unknown scenario "${scenario}"; known: ${known.join(', ')}`);
  }
  return { subject: owner, scenario };
}

/** What the config options of a command say. */
export interface ConfigOptions {
  readonly scenario?: string;
  readonly config?: string;
  readonly set?: Record<string, string>;
  readonly allowUnsafeConfig?: boolean;
}

/** Resolves scenario and config from the options; a config file may name its scenario (`scenario: node-partition`). */
export async function resolveFromOptions(opts: ConfigOptions): Promise<Resolved & { subject: Subject }> {
  const file = opts.config === undefined ? undefined : readConfigFile(opts.config);
  const given = file === undefined ? undefined : (file as Record<string, unknown>).scenario;
  if (given !== undefined && (typeof given !== 'string' || given.trim() === '')) {
    fail(ToolErrorCode.malformedConfig, `${opts.config}: "scenario" must be a scenario name (e.g. scenario: node-partition), got ${JSON.stringify(given)?.slice(0, 40)}`);
  }
  const named = given as string | undefined;
  if (opts.scenario && named && named !== opts.scenario) {
    fail(ToolErrorCode.badOption, `--scenario ${opts.scenario} disagrees with "scenario: ${named}" in ${opts.config}`);
  }
  const { subject, scenario } = await subjectOf(opts.scenario ?? named);
  let fileForModel = file;
  if (named) {
    const { scenario: _drop, ...rest } = file as Record<string, unknown>;
    fileForModel = rest;
  }
  const input = {
    ...(fileForModel === undefined ? {} : { file: fileForModel }),
    ...(opts.set ? { set: opts.set } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafe: true } : {}),
  };
  refuseOversizedCluster(subject.name, scenario, input);
  const resolved = subject.resolve(scenario, input);
  return { ...resolved, subject };
}

/** Checks the ids asked for against the subject's catalogue; KC210 lists the known ones. */
export function checkPropertyIds(subject: Subject, ids: readonly string[] | undefined): void {
  for (const id of ids ?? []) {
    if (id === 'deadlock') continue;
    if (!subject.properties.some((p) => p.id === id)) {
      fail(ToolErrorCode.unknownProperty, `unknown property "${id}"; known: ${subject.properties.map((p) => p.id).join(', ')}`);
    }
  }
}
