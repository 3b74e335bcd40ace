/**
 * Error codes of the command line and the reports (KC2xx), in one place, stable once released.
 * Codes KC0xx belong to the checker (`checker/errors.ts`) and KC1xx to the model and its config.
 * Every one of them reaches the user as one line, `kubecheck: KC2xx: ...`, with exit code 2.
 */
export { KubecheckError, fail } from '../checker/errors.js';

export const ToolErrorCode = {
  /** A command-line option is missing, unknown or has a bad value (commander's own errors too). */
  badOption: 'KC200',
  /** A file given on the command line cannot be read. */
  unreadableFile: 'KC201',
  /** A config file is not valid YAML or JSON, or is not a mapping. */
  malformedConfig: 'KC202',
  /** A trace file is not ITF JSON (no `#meta`/`vars`/`states`, a state without its action label). */
  notItf: 'KC203',
  /** A trace was made for another scenario, another config or by another tool. */
  traceMismatch: 'KC204',
  /** A trace no longer replays: a step is not enabled, or leads to another state than saved. */
  traceDiverges: 'KC205',
  /** A trace replays but does not show what it claims (the property no longer fails at its end). */
  traceNotReproduced: 'KC206',
  /** `--out DIR` would overwrite an existing file (use `--force`). */
  wouldOverwrite: 'KC207',
  /** A state graph is larger than the cap that Graphviz can lay out. */
  graphTooLarge: 'KC208',
  /** An unknown scenario (when the model has not said so itself). */
  unknownScenario: 'KC209',
  /** An unknown property id. */
  unknownProperty: 'KC210',
  /** An output format that cannot be produced here (e.g. PNG without the `dot` program). */
  formatUnavailable: 'KC211',
  /** A parameter that the scenario does not have (when the model has not said so itself). */
  unknownParameter: 'KC212',
  /** A parameter value outside its rule (when the model has not said so itself). */
  badParameterValue: 'KC213',
  /** An output file or folder cannot be written: no such parent folder, a file where a folder is needed, no permission, no space. */
  cannotWrite: 'KC214',
  /** An `--extension` module failed: it threw while loading, did not finish loading in time, or ended the process. */
  extensionFailed: 'KC215',
  /** A request to `kubecheck explore` took more than the time one request may take (HTTP 503). */
  explorerRequestTooLong: 'KC216',
  /** `check --strict`: the cluster's shape (nodes, zones) is the scenario's default, since its files did not give it. */
  clusterNotRead: 'KC217',
  /**
   * One call into an extension's code (a step, a guard, a reconcile, a hook, a property) ran
   * longer than a call may (`KUBECHECK_HOOK_TIMEOUT`, 30 s): a defect of the module, exit 2.
   */
  userCodeHung: 'KC218',
  /**
   * `--time-limit` passed while a call into an extension's code still ran: the time bound
   * stopped the check, which is incomplete (exit 3), as any other bound.
   */
  timeLimitInUserCode: 'KC219',
  /**
   * A `--model` module failed: it threw while loading, did not finish loading in time, ended the
   * process, exports no `Model` nor factory, or its factory threw or returned no `Model`.
   */
  badModel: 'KC220',
  /**
   * `replay`: an extension module the trace recorded has changed since (its content hash, over
   * the entry file and the files it imports by relative paths, differs); `--allow-changed-extension`
   * replays it anyway.
   */
  extensionChanged: 'KC221',
} as const;

export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];
