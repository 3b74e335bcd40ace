/**
 * What a run records of its input so that its traces travel with it: the config as given and the
 * extension modules checked (see {@link RunInfo}), as fields of `result.json` and of each ITF trace's `#meta`.
 */
import type { JsonValue } from '../checker/index.js';
import type { RunInfo } from './outcome.js';

/** The config as given and the extension modules checked, as JSON fields (of `result.json` and an ITF `#meta`). */
export function recordedInput(info: Pick<RunInfo, 'configInput' | 'extensionModules'>): { configInput?: JsonValue; extensionModules?: JsonValue } {
  const json = (v: unknown): JsonValue => JSON.parse(JSON.stringify(v)) as JsonValue;
  return {
    ...(info.configInput === undefined ? {} : { configInput: json(info.configInput) }),
    ...(info.extensionModules === undefined ? {} : { extensionModules: json(info.extensionModules) }),
  };
}

