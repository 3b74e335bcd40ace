/**
 * The CI formats of `kubecheck check`: JUnit XML (validated by fast-xml-parser, the parser many
 * CI reporters use), SARIF 2.1.0 (validated by ajv against the SARIF 2.1.0 JSON schema), GitHub
 * workflow commands when GITHUB_ACTIONS=true, and progress lines when stderr is not a terminal.
 *
 * The schema, test/fixtures/sarif-2.1.0-rtm.5.json, is the file the npm package
 * @microsoft/sarif-matcher-utils@1.0.0-beta.0 ships (MIT; lib/schemas/sarif-2.1.0-rtm.5.json),
 * published by SchemaStore as
 * https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/json/sarif-2.1.0-rtm.5.json
 * (the schema of SARIF 2.1.0's last release candidate). The OASIS standard's final schema,
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json,
 * which the reports name in `$schema`, followed it with small changes (e.g. artifactLocation
 * gained a `description`); the reports write only core objects of both (rules, results,
 * locations, code flows, invocations and their notifications). No npm package found ships the
 * final file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { always, check } from '../../checker/index.js';
import { escapeData, escapeProperty, githubAnnotations, workflowCommand } from '../../reports/githubAnnotations.js';
import { junitReport, xmlAttr, xmlText } from '../../reports/junit.js';
import { pathUri, sarifReport } from '../../reports/sarif.js';
import { counter } from '../toys/counter.js';
import { fieldLine, fieldPath } from '../../cli/import/locate.js';
import { expectOneLine, kubecheck, kubecheckAsync, normalise, ROOT } from './run.js';

const BUGGY = ['--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared'];
const SCHEMA = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/sarif-2.1.0-rtm.5.json', import.meta.url)), 'utf8')) as object;

/**
 * ajv for the draft-04 schema of SARIF, with its formats (uri, uri-reference, date-time) checked.
 * Patterns compile without the u flag: the schema's `language` pattern has a stray `]` that only
 * unicode mode refuses.
 */
function sarifValidator(): (doc: unknown) => string[] {
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats.default(ajv);
  const validate = ajv.compile(SCHEMA);
  return (doc) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));
}
const validSarif = sarifValidator();

interface XmlCase {
  '@_classname': string;
  '@_name': string;
  '@_time'?: string;
  failure?: { '@_message': string; '@_type': string; '#text'?: string };
  skipped?: { '@_message': string };
}
interface XmlSuite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_errors': string;
  '@_skipped': string;
  '@_time': string;
  '@_timestamp': string;
  '@_hostname': string;
  properties: { property: { '@_name': string; '@_value': string }[] };
  testcase: XmlCase[];
  'system-out': string;
}

/** The JUnit document, validated as XML, parsed to its one suite. */
function junitSuite(xml: string): XmlSuite {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) }).parse(xml) as { testsuites: { testsuite: XmlSuite[]; '@_tests': string } };
  expect(doc.testsuites.testsuite).toHaveLength(1);
  const suite = doc.testsuites.testsuite[0];
  expect(doc.testsuites['@_tests']).toBe(suite['@_tests']);
  // The counts say what the cases are.
  expect(Number(suite['@_tests'])).toBe(suite.testcase.length);
  expect(Number(suite['@_failures'])).toBe(suite.testcase.filter((c) => c.failure).length);
  expect(Number(suite['@_skipped'])).toBe(suite.testcase.filter((c) => c.skipped).length);
  expect(suite['@_errors']).toBe('0');
  expect(Number(suite['@_time'])).toBeGreaterThanOrEqual(0);
  // The common JUnit schema's shape: timestamp an xs:dateTime without a zone, hostname a token,
  // each checked testcase's time the seconds until it was decided, within the suite's.
  expect(suite['@_timestamp']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  expect(Math.abs(Date.parse(`${suite['@_timestamp']}Z`) - Date.now())).toBeLessThan(24 * 3600 * 1000);
  expect(suite['@_hostname']).toMatch(/^\S+$/);
  for (const c of suite.testcase.filter((t) => t.skipped === undefined || t['@_time'] !== undefined)) {
    expect(c['@_time'], c['@_name']).toMatch(/^\d+\.\d{3}$/);
    expect(Number(c['@_time'])).toBeLessThanOrEqual(Number(suite['@_time']) + 0.001);
  }
  return suite;
}

function propertyOf(suite: XmlSuite, name: string): string | undefined {
  return suite.properties.property.find((p) => p['@_name'] === name)?.['@_value'];
}

interface SarifDoc {
  runs: {
    tool: { driver: { name: string; rules: { id: string; shortDescription: { text: string }; properties: { kind: string } }[] } };
    invocations: { exitCode: number; toolExecutionNotifications: { level: string; message: { text: string } }[] }[];
    results: {
      ruleId: string;
      level: string;
      message: { text: string };
      locations?: { physicalLocation: { artifactLocation: { uri: string } } }[];
      codeFlows?: { threadFlows: { locations: { location: { message: { text: string } }; properties: { steps: [number, number] } }[] }[] }[];
    }[];
    properties: { stats: { distinctStates: number } };
  }[];
}

describe('kubecheck check --format junit', () => {
  it('should write one testsuite, one testcase per property and the counterexample as the failure body', async () => {
    const [bad, json, good] = await Promise.all([
      kubecheckAsync(['check', ...BUGGY, '--format', 'junit']),
      kubecheckAsync(['check', ...BUGGY, '--json']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--format', 'junit']),
    ]);
    expect(bad.code).toBe(1);
    const suite = junitSuite(bad.stdout);
    expect(suite['@_name']).toBe('two-phase-commit');
    expect(suite.testcase.map((c) => [c['@_classname'], c['@_name']])).toEqual([['kubecheck.two-phase-commit.invariant', 'consistent']]);
    const failure = suite.testcase[0].failure!;
    expect(failure['@_message']).toBe('no resource manager is committed while another is aborted (counterexample: 5 steps)');
    // The body is the text timeline check prints: every step of the counterexample, in order.
    const steps = (JSON.parse(json.stdout) as { counterexample: { timeline: { actor: string; summary: string }[] } }).counterexample.timeline;
    expect(steps).toHaveLength(5);
    const body = failure['#text'] ?? '';
    let at = 0;
    for (const s of steps) {
      const i = body.indexOf(s.summary, at);
      expect(i, s.summary).toBeGreaterThan(at - 1);
      at = i;
    }
    expect(body).toMatch(/^consistent: no resource manager .*\ncounterexample: 5 steps/);
    expect(body).toContain('rmState[0]: working → prepared');
    expect(propertyOf(suite, 'distinctStates')).toBe('167');
    expect(propertyOf(suite, 'verdict')).toBe('violation');
    expect(propertyOf(suite, 'exitCode')).toBe('1');
    expect(JSON.parse(propertyOf(suite, 'config')!)).toEqual({ rms: 3, bug: 'commit-on-any-prepared' });
    expect(suite['system-out']).toMatch(/167 distinct states, 467 generated, depth 6/);
    expect(suite['system-out']).toMatch(/violation: 1 property failed \(exit 1\)/);

    expect(good.code).toBe(0);
    const ok = junitSuite(good.stdout);
    expect(ok.testcase.map((c) => [c['@_name'], c.failure, c.skipped])).toEqual([['consistent', undefined, undefined]]);
  });

  it('should skip, with the reason, the properties left out and those a bound left undecided (exit 3)', () => {
    const r = kubecheck(['check', '--scenario', 'node-failure', '--set', 'operator.forceDeletePod=1', '--max-states', '300', '--format', 'junit']);
    expect(r.code).toBe(3);
    const suite = junitSuite(r.stdout);
    expect(suite['@_name']).toBe('node-failure');
    const leftOut = suite.testcase.find((c) => c['@_name'] === 'replacement-after-toleration')!;
    expect(leftOut['@_classname']).toBe('kubecheck.node-failure.observer');
    expect(leftOut.skipped!['@_message']).toMatch(/^not checked: operator actions/);
    const single = suite.testcase.find((c) => c['@_name'] === 'single-leader')!;
    expect(single['@_classname']).toBe('kubecheck.node-failure.invariant');
    expect(single.skipped!['@_message']).toBe('undecided: the search stopped at --max-states 300 before the state space was exhausted');
    expect(new Set(suite.testcase.map((c) => c['@_classname']))).toEqual(new Set(['invariant', 'action', 'observer', 'reachable'].map((k) => `kubecheck.node-failure.${k}`)));
    expect(propertyOf(suite, 'stoppedBy')).toBe('states 300');
  });
});

describe('kubecheck check --format sarif', () => {
  it('should write a SARIF 2.1.0 log valid against its schema: a rule per property, a result per violation with its steps', async () => {
    const [noConfig, withConfig, good] = await Promise.all([
      kubecheckAsync(['check', ...BUGGY, '--format', 'sarif']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--config', 'test/cli/fixtures/2pc-bug.yaml', '--format', 'sarif']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--format', 'sarif']),
    ]);
    for (const r of [noConfig, withConfig]) {
      expect(r.code, r.stderr).toBe(1);
      const doc = JSON.parse(r.stdout) as SarifDoc;
      expect(validSarif(doc)).toEqual([]);
      expect(doc.runs).toHaveLength(1);
      const run = doc.runs[0];
      expect(run.tool.driver.name).toBe('kubecheck');
      expect(run.tool.driver.rules.map((x) => [x.id, x.shortDescription.text, x.properties.kind])).toEqual([['consistent', 'no resource manager is committed while another is aborted', 'invariant']]);
      expect(run.results).toHaveLength(1);
      const [res] = run.results;
      expect(res).toMatchObject({ ruleId: 'consistent', level: 'error', message: { text: 'no resource manager is committed while another is aborted: violated; counterexample of 5 steps' } });
      const flow = res.codeFlows![0].threadFlows[0].locations;
      expect(flow.map((l) => l.location.message.text)).toEqual([
        'T+0s  rm-1: prepares and sends Prepared',
        'T+0s  tm: receives Prepared from rm-1',
        'T+0s  tm: commits and sends Commit',
        'T+0s  rm-2: chooses to abort',
        'T+0s  rm-1: receives Commit, commits',
      ]);
      expect(run.invocations[0].exitCode).toBe(1);
      expect(run.properties.stats.distinctStates).toBe(167);
    }
    expect((JSON.parse(noConfig.stdout) as SarifDoc).runs[0].results[0].locations).toBeUndefined();
    // Each setting the file gave, at its line.
    expect((JSON.parse(withConfig.stdout) as SarifDoc).runs[0].results[0].locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: 'test/cli/fixtures/2pc-bug.yaml' }, region: { startLine: 2 } }, message: { text: 'rms, read from test/cli/fixtures/2pc-bug.yaml: rms' } },
      { physicalLocation: { artifactLocation: { uri: 'test/cli/fixtures/2pc-bug.yaml' }, region: { startLine: 3 } }, message: { text: 'bug, read from test/cli/fixtures/2pc-bug.yaml: bug' } },
    ]);

    expect(good.code).toBe(0);
    const ok = JSON.parse(good.stdout) as SarifDoc;
    expect(validSarif(ok)).toEqual([]);
    expect(ok.runs[0].results).toEqual([]);
  });

  it('should fold a Kubernetes lasso\'s runs of ticks into one thread-flow location each, left-out properties as notes, valid SARIF (liveness)', async () => {
    const [sarif, liveness] = await Promise.all([
      kubecheckAsync(['check', '--scenario', 'node-failure', '--set', 'operator.forceDeletePod=1', '--max-states', '300', '--format', 'sarif']),
      kubecheckAsync(['check', '--scenario', 'node-failure', '--liveness', '--format', 'sarif']),
    ]);
    expect(sarif.code).toBe(3);
    const partial = JSON.parse(sarif.stdout) as SarifDoc;
    expect(validSarif(partial)).toEqual([]);
    const notes = partial.runs[0].invocations[0].toolExecutionNotifications;
    expect(notes.find((n) => n.level === 'note')?.message.text).toMatch(/^replacement-after-toleration \(observer\) not checked: operator actions/);
    expect(notes.find((n) => n.level === 'warning')?.message.text).toMatch(/^the search stopped at --max-states 300 .*; undecided: single-leader, /);

    expect(liveness.code).toBe(1);
    const live = JSON.parse(liveness.stdout) as SarifDoc;
    expect(validSarif(live)).toEqual([]);
    const lasso = live.runs[0].results.find((x) => x.ruleId === 'statefulset-identity-eventually-running')!;
    expect(lasso.message.text).toMatch(/a lasso of \d+ steps whose cycle starts after step \d+/);
    const flow = lasso.codeFlows![0].threadFlows[0].locations;
    const steps = Number(/a lasso of (\d+) steps/.exec(lasso.message.text)![1]);
    expect(steps).toBeGreaterThan(400);
    expect(flow.length).toBeLessThan(steps / 1.5); // the timeline's lines: runs of ticks are one
    // The locations cover every step once, in order.
    expect(flow[0].properties.steps[0]).toBe(1);
    for (let i = 1; i < flow.length; i++) expect(flow[i].properties.steps[0]).toBe(flow[i - 1].properties.steps[1] + 1);
    expect(flow[flow.length - 1].properties.steps[1]).toBe(steps);
    expect(live.runs[0].tool.driver.rules.find((x) => x.id === 'statefulset-identity-eventually-running')?.properties.kind).toBe('liveness');
  });
});

describe('CI reports point at the cluster\'s own files', () => {
  const unit = (dir: string): string => {
    const path = join(dir, 'kube-controller-manager.service');
    writeFileSync(path, '[Unit]\nDescription=Kubernetes Controller Manager\n\n[Service]\nExecStart=/usr/local/bin/kube-controller-manager \\\n  --v=2 \\\n  --node-monitor-grace-period=10s\n');
    return path;
  };

  it('should locate SARIF results and ::error annotations at the file and line of the setting read, and keep several scenarios\' JUnit cases apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubecheck-ci-lines-'));
    const path = unit(dir);
    const args = ['check', '--config', path, '--property', 'healthy-node-not-unknown'];
    const env = { GITHUB_ACTIONS: 'true' };
    const [sarif, junit, other] = await Promise.all([
      kubecheckAsync([...args, '--format', 'sarif'], { env, timeoutMs: 240_000 }),
      kubecheckAsync([...args, '--format', 'junit'], { timeoutMs: 240_000 }),
      kubecheckAsync(['check', ...BUGGY, '--format', 'junit'], { timeoutMs: 240_000 }),
    ]);
    expect(sarif.code, sarif.stderr).toBe(1);
    const doc = JSON.parse(sarif.stdout) as SarifDoc;
    expect(validSarif(doc)).toEqual([]);
    const result = doc.runs[0].results.find((r) => r.ruleId === 'healthy-node-not-unknown')!;
    expect(result.locations).toEqual([{
      physicalLocation: { artifactLocation: { uri: pathUri(path) }, region: { startLine: 7 } },
      message: { text: `kubeControllerManager.nodeMonitorGracePeriod, read from ${path}: --node-monitor-grace-period` },
    }]);
    expect(sarif.stderr.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      expect.stringMatching(new RegExp(`^::error file=${escapeProperty(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=7,title=healthy-node-not-unknown::kubecheck node-failure: healthy-node-not-unknown violated: .*; settings read: kubeControllerManager\\.nodeMonitorGracePeriod \\(.*kube-controller-manager\\.service:7\\)$`)),
    ]);
    // Merged, the two scenarios' cases stay apart: the classname names the scenario.
    const a = junitSuite(junit.stdout);
    const b = junitSuite(other.stdout);
    expect(a.testcase.map((c) => c['@_classname'])).toEqual(['kubecheck.node-failure.action']);
    expect(b.testcase.map((c) => c['@_classname'])).toEqual(['kubecheck.two-phase-commit.invariant']);
    // The violation was found before the search ended: its time is when.
    expect(Number(a.testcase[0]['@_time'])).toBeGreaterThan(0);
  }, 600_000);

  it('should find the line of a field of a YAML file by its path, and of each flag of a unit', () => {
    const text = 'kubeScheduler:\n  leaderElection:\n    leaseDuration: 30s\nkubeControllerManager:\n  leaderElection:\n    leaseDuration: 20s\n';
    expect(fieldLine(text, fieldPath(': kubeControllerManager.leaderElection.leaseDuration'))).toBe(6);
    expect(fieldLine(text, fieldPath(': kubeScheduler.leaderElection.leaseDuration'))).toBe(3);
    expect(fieldLine(text, fieldPath(': kubelet.nodeLeaseDurationSeconds'))).toBeUndefined();
    const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n  - name: bind-address\n    value: 0.0.0.0\n  - name: node-monitor-grace-period\n    value: 30s\n';
    expect(fieldLine(kubeadm, fieldPath(' (ClusterConfiguration.controllerManager.extraArgs): --node-monitor-grace-period'))).toBe(7);
  });
});

describe('GitHub workflow commands (GITHUB_ACTIONS=true)', () => {
  it('should print one ::error line per violated property, on stdout with text and on stderr beside a document', async () => {
    const env = { GITHUB_ACTIONS: 'true' };
    const [text, junit, plain] = await Promise.all([
      kubecheckAsync(['check', ...BUGGY], { env }),
      kubecheckAsync(['check', ...BUGGY, '--format', 'junit'], { env }),
      kubecheckAsync(['check', ...BUGGY], { env: { GITHUB_ACTIONS: 'false' } }),
    ]);
    const line = '::error title=consistent::kubecheck two-phase-commit: consistent violated: no resource manager is committed while another is aborted; counterexample of 5 steps';
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([line]);
    expect(junit.code).toBe(1);
    expect(junit.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual([line]);
    junitSuite(junit.stdout); // stdout stays one XML document
    expect(plain.stdout + plain.stderr).not.toContain('::error');
  });

  it('should escape % \\r \\n in messages and also : and , in properties, as GitHub\'s toolkit does', () => {
    expect(escapeData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    expect(workflowCommand('warning', 'line one\nline two', { title: 'kubecheck: config, warning' })).toBe('::warning title=kubecheck%3A config%2C warning::line one%0Aline two');
  });

  it('should add one ::warning line per config warning', () => {
    const model = counter({ max: 3, properties: [always('small', 'x stays below 2', (x: number) => x < 2)] });
    const result = check(model);
    const lines = githubAnnotations(model, result, { command: 'check', scenario: 'counter', warnings: ['grace period 10s is not above renewInterval 10s: 100% of it\nsee docs'] });
    expect(lines).toEqual([
      '::error title=small::kubecheck counter: small violated: x stays below 2; counterexample of 2 steps',
      '::warning title=kubecheck counter%3A config warning::grace period 10s is not above renewInterval 10s: 100%25 of it%0Asee docs',
    ]);
  });
});

describe('the reports\' escaping', () => {
  it('should keep JUnit XML well-formed and SARIF valid whatever a description holds', () => {
    const weird = 'x < 2 & "small" \u001b[31mred\u001b[0m \u0000 ]]> \'q\'';
    const model = counter({ max: 3, properties: [always('small', weird, (x: number) => x < 2)] });
    const result = check(model);
    const xml = junitReport(model, result, { command: 'check', scenario: 'counter <&>', startedAt: new Date().toISOString(), hostname: 'ci-runner-1', leftOut: [{ id: 'gone', reason: 'a "reason" <with> & marks' }] });
    const suite = junitSuite(xml);
    expect(suite['@_name']).toBe('counter <&>');
    expect(suite.testcase[0].failure!['@_message']).toBe('x < 2 & "small" [31mred[0m  ]]> \'q\' (counterexample: 2 steps)');
    expect(suite.testcase[1]).toMatchObject({ '@_classname': 'kubecheck.counter <&>.property', '@_name': 'gone', skipped: { '@_message': 'not checked: a "reason" <with> & marks' } });
    expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(xmlAttr('"\n')).toBe('&quot;&#10;');
    const sarif = sarifReport(model, result, { command: 'check' }, { configFiles: ['my cluster/kubelet config.yaml', '/abs/x.yaml'] });
    expect(validSarif(JSON.parse(JSON.stringify(sarif)))).toEqual([]);
    expect(pathUri('my cluster/a#b.yaml')).toBe('my%20cluster/a%23b.yaml');
    expect(pathUri('/abs/x.yaml')).toBe('file:///abs/x.yaml');
  });
});

describe('progress when stderr is not a terminal', () => {
  const PROGRESS = /^kubecheck: progress: [\d,]+ distinct states, [\d,]+ generated, depth \d+, queue [\d,]+, [\d,]+ states\/s, \d+s elapsed$/;
  const LARGE = ['check', '--scenario', 'two-phase-commit', '--set', 'rms=5'];

  it('should print well-formed progress lines at KUBECHECK_PROGRESS_INTERVAL, none with --quiet, none by default in a short check', async () => {
    const env = { KUBECHECK_PROGRESS_INTERVAL: '1' };
    const [loud, quiet, usual] = await Promise.all([
      kubecheckAsync(LARGE, { env }),
      kubecheckAsync([...LARGE, '--quiet'], { env }),
      kubecheckAsync(LARGE),
    ]);
    expect(loud.code).toBe(0);
    const lines = loud.stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(PROGRESS);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(usual.stderr).toBe(''); // 30 s between lines by default: a short check prints none
    expect(normalise(quiet.stdout)).toBe(normalise(usual.stdout)); // the same report
  });
});

describe('bad CI options', () => {
  it('should refuse an unknown --format, --json with another format and a bad KUBECHECK_PROGRESS_INTERVAL in one line (exit 2)', async () => {
    const [format, both, interval] = await Promise.all([
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--format', 'yaml']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--format', 'sarif', '--json']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit'], { env: { KUBECHECK_PROGRESS_INTERVAL: '30s' } }),
    ]);
    expectOneLine(format, 'KC200', /--format must be one of text, json, junit, sarif, got "yaml"/);
    expectOneLine(both, 'KC200', /--json and --format sarif/);
    expectOneLine(interval, 'KC200', /KUBECHECK_PROGRESS_INTERVAL must be a positive number of milliseconds/);
    expect(format.stdout + both.stdout + interval.stdout).toBe('');
  });

  it('should list --format, --quiet and the CI environment in check --help', () => {
    const help = kubecheck(['check', '--help'], { cwd: ROOT }).stdout;
    expect(help).toMatch(/-f, --format <format>/);
    expect(help).toMatch(/-q, --quiet/);
    expect(help).toMatch(/GITHUB_ACTIONS=true/);
    expect(help).toMatch(/KUBECHECK_PROGRESS_INTERVAL/);
  });
});
