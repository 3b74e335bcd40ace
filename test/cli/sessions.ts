/**
 * The documentation's terminal sessions as tests. Every ```console block of a Markdown file is a
 * session: each `$ kubecheck ...` line (`npx` allowed, `\` continues a line) runs in turn, in a
 * folder of its own, and what follows it up to the next `$` line is what the command prints
 * (stdout and stderr as a terminal shows them, normalised as the other golden files are). A line
 * `...` stands for any number of lines, so a session may show the part of a long output that
 * matters. Marks on the lines before the block, each an HTML comment the rendered page hides:
 *
 *     <!-- !test skip: REASON -->          not run (a server, a command outside kubecheck)
 *     <!-- !test excerpt -->               each shown line is printed, in this order, with
 *                                          others between (a trace's steps without their changes)
 *     <!-- !test given NAME from PATH -->  the repository's PATH (file or folder) as NAME
 *     <!-- !test given NAME -->            the next fenced block's content as NAME
 *
 * A block without a mark always runs, so a command added to the documentation is tested unless it
 * says why not.
 */
import { splitArgs } from './literate.js';

export interface SessionCommand {
  /** The command as the documentation writes it (continuations joined). */
  readonly command: string;
  /** Its arguments after `kubecheck`. */
  readonly args: readonly string[];
  /** Where stdout goes instead of the terminal (`>> FILE`), so the session shows nothing. */
  readonly redirect?: string;
  /** The expected output, lines, `...` for any run of lines. */
  readonly expected: readonly string[];
  /** Where the expected lines sit in the file (0-based line indexes, end exclusive). */
  readonly outputStart: number;
  readonly outputEnd: number;
}

export interface Given {
  readonly name: string;
  /** A path in the repository, or undefined when `content` holds the file. */
  readonly from?: string;
  readonly content?: string;
}

export interface Session {
  readonly file: string;
  /** 1-based line of the block's opening fence. */
  readonly line: number;
  readonly title: string;
  readonly skip?: string;
  /** The outputs shown are excerpts: their lines in order, others allowed between. */
  readonly excerpt: boolean;
  readonly given: readonly Given[];
  readonly commands: readonly SessionCommand[];
}

const MARK = /^<!-- !test (skip: (.+)|given (\S+)(?: from (\S+))?|excerpt) -->\s*$/;


function commandOf(text: string, where: string): Pick<SessionCommand, 'command' | 'args' | 'redirect'> {
  let args = splitArgs(text);
  if (args[0] === 'npx') args = args.slice(1);
  if (args[0] !== 'kubecheck') throw new Error(`${where}: a session runs kubecheck commands only ("${text}"); mark it <!-- !test skip: why -->`);
  args = args.slice(1);
  const r = args.findIndex((a) => a === '>>' || a === '>');
  if (r >= 0) return { command: text, args: args.slice(0, r), redirect: args[r + 1] };
  return { command: text, args };
}

/** The console sessions of a Markdown file. */
export function parseSessions(file: string, text: string): Session[] {
  const lines = text.split('\n');
  const out: Session[] = [];
  let title = '';
  let skip: string | undefined;
  let excerpt = false;
  let given: Given[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = /^#+\s+(.*)$/.exec(lines[i]);
    if (h) title = h[1];
    const m = MARK.exec(lines[i]);
    if (m) {
      if (m[1] === 'excerpt') excerpt = true;
      else if (m[2] !== undefined) skip = m[2];
      else if (m[4] !== undefined) given.push({ name: m[3], from: m[4] });
      else {
        let j = i + 1;
        while (j < lines.length && lines[j].trim() === '') j++;
        const open = /^(`{3,})/.exec(lines[j] ?? '');
        if (!open) throw new Error(`${file}:${i + 1}: "given ${m[3]}" needs a fenced block after it`);
        let k = j + 1;
        while (k < lines.length && lines[k] !== open[1]) k++;
        given.push({ name: m[3], content: `${lines.slice(j + 1, k).join('\n')}\n` });
        i = k;
      }
      continue;
    }
    const fence = /^(`{3,})console\s*$/.exec(lines[i]);
    if (!fence) {
      // A mark stays with the block right after it: prose in between would move it silently.
      if ((skip !== undefined || excerpt || given.length > 0) && lines[i].trim() !== '') {
        throw new Error(`${file}:${i + 1}: a !test mark must come right before its console block`);
      }
      continue;
    }
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== fence[1]) end++;
    const commands: SessionCommand[] = [];
    let current: (Pick<SessionCommand, 'command' | 'args' | 'redirect'> & { expected: string[]; outputStart: number; outputEnd: number }) | undefined;
    for (let k = start; k < end; k++) {
      if (lines[k].startsWith('$ ')) {
        let text = lines[k].slice(2);
        while (text.endsWith('\\') && k + 1 < end) text = `${text.slice(0, -1).trimEnd()} ${lines[++k].trim()}`;
        if (current) commands.push(current);
        const at = { expected: [], outputStart: k + 1, outputEnd: k + 1 };
        current = skip === undefined ? { ...commandOf(text, `${file}:${k + 1}`), ...at } : { command: text, args: [], ...at };
      } else if (current) {
        current.expected.push(lines[k]);
        current.outputEnd = k + 1;
      } else if (skip === undefined) {
        throw new Error(`${file}:${k + 1}: a console block starts with a "$ " command line`);
      }
    }
    if (current) commands.push(current);
    out.push({ file, line: i + 1, title, ...(skip === undefined ? {} : { skip }), excerpt, given, commands });
    skip = undefined;
    excerpt = false;
    given = [];
    i = end;
  }
  return out;
}

/**
 * Whether `actual` matches `expected`, line by line after trimming line ends, where an expected
 * line `...` (indented or after `#` as well) matches any run of lines (none included). Leading and trailing blank lines of the
 * actual output do not count. An excerpt matches when its lines appear in order, anywhere.
 */
/** `...` on a line of its own, indented or after a comment's `#` as the shown output is. */
const isGap = (line: string): boolean => /^\s*(#\s*)?\.\.\.$/.test(line);

export function matchesOutput(expected: readonly string[], actual: string, excerpt = false): boolean {
  const want = trimBlank(expected.map((l) => l.trimEnd()));
  const got = trimBlank(actual.split('\n').map((l) => l.trimEnd()));
  if (excerpt) {
    let j = 0;
    for (const line of want) {
      if (isGap(line) || line === '') continue;
      while (j < got.length && got[j] !== line) j++;
      if (j === got.length) return false;
      j++;
    }
    return true;
  }
  // Classic wildcard matching over lines, with memoisation by (i, j).
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (got.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === want.length) r = j === got.length;
    else if (isGap(want[i])) r = go(i + 1, j) || (j < got.length && go(i, j + 1));
    else r = j < got.length && want[i] === got[j] && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** The first line of an excerpt that the output lacks (in order), for a failure message. */
export function missingLine(expected: readonly string[], actual: string): string | undefined {
  const got = actual.split('\n').map((l) => l.trimEnd());
  let j = 0;
  for (const line of expected.map((l) => l.trimEnd())) {
    if (isGap(line) || line === '') continue;
    while (j < got.length && got[j] !== line) j++;
    if (j === got.length) return line;
    j++;
  }
  return undefined;
}

function trimBlank(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a] === '') a++;
  while (b > a && lines[b - 1] === '') b--;
  return lines.slice(a, b);
}
