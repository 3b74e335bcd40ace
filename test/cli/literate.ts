/**
 * Literate CLI tests, after Quint's integration-tests/*.md: a Markdown file whose command blocks
 * and expected outputs are run as tests, so the documentation is the golden file.
 *
 *     <!-- !test exit 1 -->
 *     ```sh
 *     kubecheck check --scenario two-phase-commit --set bug=commit-on-any-prepared
 *     ```
 *     <!-- !test out -->
 *     ```text
 *     (expected stdout, normalised)
 *     ```
 *     <!-- !test err -->      (optional: expected stderr)
 *
 * With KUBECHECK_UPDATE_GOLDEN=1 the expected blocks are rewritten from the actual output.
 */

export interface Example {
  readonly title: string;
  readonly args: readonly string[];
  readonly command: string;
  readonly exit: number;
  readonly out?: Block;
  readonly err?: Block;
}

/** A fenced block's content and where it sits (line indexes of its content, end exclusive). */
export interface Block {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const MARK = /^<!-- !test (exit (\d+)|out|err) -->\s*$/;

function fence(lines: readonly string[], at: number): Block & { next: number } {
  let i = at;
  while (i < lines.length && lines[i].trim() === '') i++;
  const open = /^(`{3,})/.exec(lines[i] ?? '');
  if (!open) throw new Error(`line ${i + 1}: expected a fenced block after a !test mark`);
  const start = i + 1;
  let j = start;
  while (j < lines.length && lines[j] !== open[1]) j++;
  return { text: lines.slice(start, j).join('\n'), start, end: j, next: j + 1 };
}

/** Splits a command line into arguments (single and double quotes group). */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The examples of a literate test file. */
export function parseExamples(text: string): Example[] {
  const lines = text.split('\n');
  const out: Example[] = [];
  let title = '';
  let current: { title: string; args: string[]; command: string; exit: number; out?: Block; err?: Block } | undefined;
  for (let i = 0; i < lines.length; ) {
    const h = /^#+\s+(.*)$/.exec(lines[i]);
    if (h) title = h[1];
    const m = MARK.exec(lines[i]);
    if (!m) {
      i++;
      continue;
    }
    const block = fence(lines, i + 1);
    if (m[2] !== undefined) {
      if (current) out.push(current);
      const command = block.text.trim().replace(/^\$\s*/, '');
      const args = splitArgs(command);
      if (args[0] === 'npx') args.shift();
      if (args[0] !== 'kubecheck') throw new Error(`line ${block.start}: a command must start with kubecheck`);
      current = { title, args: args.slice(1), command, exit: Number(m[2]) };
    } else if (current) {
      current[m[1] as 'out' | 'err'] = block;
    }
    i = block.next;
  }
  if (current) out.push(current);
  return out;
}

/** Rewrites the expected blocks with actual outputs (by block position, last first). */
export function updateExamples(text: string, actual: readonly { block: Block; text: string }[]): string {
  const lines = text.split('\n');
  for (const a of [...actual].sort((x, y) => y.block.start - x.block.start)) {
    lines.splice(a.block.start, a.block.end - a.block.start, ...a.text.replace(/\n$/, '').split('\n'));
  }
  return lines.join('\n');
}
