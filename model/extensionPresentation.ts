/**
 * How a cluster with users' extensions reads: their memories and their API objects in people's
 * words, in every report that shows a state or a step (timelines and their state changes, final
 * states, state panes, JSON reports), through the hooks of {@link ClusterExtension}:
 *
 * - a state as people read it (`present`): `custom` holds the objects by kind and name
 *   (`custom.objects[Backup nightly].status.phase`), `extensions[name]` each memory as its
 *   `presentMemory` (or `describeMemory`) gives it;
 * - the one-line description of a state: each object as one line (`Backup nightly (uid-1, rv-3)
 *   status {phase: Done}`, `describeObject` giving the words after the metadata), then each
 *   extension's part (`describeState`, else `<name>: describeMemory(...)`);
 * - the tick's step: what `onTick` did to a memory (`describeTick`, else `<name>: before →
 *   after`), so a trace says why a memory changed when time passed.
 *
 * The stock model (no extension) keeps its texts: this applies only with extensions. Nothing here
 * changes what is checked.
 */
import type { ActionLabel, JsonValue, Model, StepDescription } from '../checker/model.js';
import type { ClusterExtension } from './clusterModel.js';
import { describeState } from './describe.js';
import { compactJson, presentStore, type ObjectSummary } from './operator/present.js';
import type { ClusterState } from './state.js';

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The model with its extensions' presentation hooks (see the module comment). */
export function withExtensionPresentation(model: Model<ClusterState>, extensions: readonly ClusterExtension[]): Model<ClusterState> {
  /** The first extension's words for an object, or undefined (the default). */
  const summary: ObjectSummary = (o) => {
    for (const e of extensions) {
      const words = e.describeObject?.(o);
      if (words !== undefined) return words;
    }
    return undefined;
  };
  const words = (e: ClusterExtension, memory: JsonValue, s: ClusterState): string => (e.describeMemory ? e.describeMemory(memory, s) : compactJson(memory));
  const basePresent = model.present;
  const present = (s: ClusterState): unknown => {
    const base = (basePresent ? basePresent(s) : s) as Record<string, unknown>;
    const memories = s.extensions;
    return {
      ...base,
      ...(s.custom === undefined ? {} : { custom: presentStore(s.custom, summary) }),
      ...(memories === undefined
        ? {}
        : {
            extensions: Object.fromEntries(
              extensions.filter((e) => e.name in memories).map((e) => {
                const m = memories[e.name];
                return [e.name, e.presentMemory ? e.presentMemory(m, s, summary) : e.describeMemory ? e.describeMemory(m, s) : m];
              }),
            ),
          }),
    };
  };
  const describe = (s: ClusterState): string => {
    const memories = s.extensions ?? {};
    const parts = extensions.flatMap((e) => (!(e.name in memories) ? [] : e.describeState ? [...e.describeState(s)] : [`${e.name}: ${words(e, memories[e.name], s)}`]));
    return [describeState(s, summary), ...parts].join(' | ');
  };
  /** What the tick did to each memory, one line per extension whose memory changed (and has something to say). */
  const tickLines = (before: ClusterState, after: ClusterState, seconds: number): string[] =>
    extensions.flatMap((e) => {
      if (e.onTick === undefined) return [];
      const b = before.extensions?.[e.name];
      const a = after.extensions?.[e.name];
      if (b === undefined || a === undefined || same(b, a)) return [];
      const line = e.describeTick ? e.describeTick(b, a, seconds, after) : `${e.name}: ${words(e, b, before)} → ${words(e, a, after)}`;
      return line === undefined || line === '' ? [] : [line];
    });
  const describeStep = model.describeStep;
  return {
    ...model,
    present,
    describeState: describe,
    ...(describeStep
      ? {
          describeStep(before: ClusterState, action: ActionLabel, after: ClusterState): StepDescription {
            const d = describeStep.call(model, before, action, after);
            if (action.name !== 'tick') return d;
            const lines = tickLines(before, after, model.elapsed?.(before, action, after) ?? 0);
            return lines.length === 0 ? d : { ...d, summary: `${d.summary}; ${lines.join('; ')}` };
          },
        }
      : {}),
  };
}
