/**
 * The two-phase commit example (tlaplus/Examples TwoPhase) as a subject of the command line:
 * scenario `two-phase-commit`, parameters `rms` (resource managers) and `bug` (a seeded bug the
 * checker must find). Small enough to draw whole and to check in milliseconds.
 */
import { fail, type JsonValue } from '../checker/index.js';
import { twoPhasePlain, type TwoPhaseBug } from '../examples/two-phase-commit/index.js';
import { ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput, Resolved, Subject } from './subjects.js';

const BUGS: readonly (TwoPhaseBug | 'none')[] = ['none', 'commit-on-any-prepared', 'rm-commits-on-prepared'];
const KEYS = ['rms', 'bug'] as const;

function read(input: ConfigInput): { rms: number; bug: TwoPhaseBug | 'none' } {
  const raw: Record<string, unknown> = { rms: 3, bug: 'none' };
  if (input.file !== undefined) {
    if (typeof input.file !== 'object' || input.file === null || Array.isArray(input.file)) {
      fail(ToolErrorCode.malformedConfig, 'the config must be a mapping of parameters (rms, bug)');
    }
    for (const [k, v] of Object.entries(input.file)) {
      if (k === 'scenario') continue;
      if (!(KEYS as readonly string[]).includes(k)) fail(ToolErrorCode.unknownParameter, `unknown parameter "${k}"; known: ${KEYS.join(', ')}`);
      raw[k] = v;
    }
  }
  for (const [k, v] of Object.entries(input.set ?? {})) {
    if (!(KEYS as readonly string[]).includes(k)) fail(ToolErrorCode.unknownParameter, `unknown parameter "${k}"; known: ${KEYS.join(', ')}`);
    raw[k] = k === 'rms' ? Number(v) : v;
  }
  const rms = raw.rms;
  if (typeof rms !== 'number' || !Number.isInteger(rms) || rms < 1 || rms > 9) {
    fail(ToolErrorCode.badParameterValue, `rms must be an integer from 1 to 9, got ${JSON.stringify(raw.rms)}`);
  }
  const bug = raw.bug;
  if (typeof bug !== 'string' || !(BUGS as readonly string[]).includes(bug)) {
    fail(ToolErrorCode.badParameterValue, `bug must be one of ${BUGS.join(', ')}, got ${JSON.stringify(raw.bug)}`);
  }
  return { rms, bug: bug as TwoPhaseBug | 'none' };
}

export const twoPhaseSubject: Subject = {
  name: 'two-phase-commit',
  scenarios: [{ name: 'two-phase-commit', description: 'example (not Kubernetes): the TwoPhase commit protocol of tlaplus/Examples' }],
  parameters: () => [
    { key: 'rms', defaultValue: '3', description: 'number of resource managers (1 to 9)' },
    { key: 'bug', defaultValue: 'none', description: `a seeded bug: ${BUGS.join(' | ')}` },
  ],
  properties: [{ id: 'consistent', kind: 'invariant', description: 'no resource manager is committed while another is aborted', source: 'tlaplus/Examples:specifications/transaction_commit/TCommit.tla (TCConsistent)' }],
  participants: ['tm'],
  resolve(scenario: string, input: ConfigInput): Resolved {
    const { rms, bug } = read(input);
    const config: JsonValue = { rms, bug };
    const model = twoPhasePlain({ rms, ...(bug === 'none' ? {} : { bug }) });
    return { scenario, config, model: model as Resolved['model'], defaultProperties: ['consistent'] };
  },
};
