/**
 * Command-line flags of the Kubernetes components as users keep them: a file of
 * `--node-monitor-grace-period=20s` lines, a systemd or shell command line with `\` continuations,
 * or the `command`/`args` of a static Pod (kubeadm's /etc/kubernetes/manifests). Pure.
 */

/** The components whose flags kubecheck reads. */
export type Component = 'kube-controller-manager' | 'kube-scheduler' | 'kube-apiserver' | 'kubelet';

export const COMPONENTS: readonly Component[] = ['kube-controller-manager', 'kube-scheduler', 'kube-apiserver', 'kubelet'];

/** One flag as written: `name` without its dashes, `value` undefined for a bare boolean flag. */
export interface Flag {
  readonly name: string;
  readonly value: string | undefined;
  /** The line of its file the flag is written on (1-based), where known. */
  readonly line?: number;
}

/** The flags of a command line, and the component when the command names it (`kube-apiserver --...`). */
export interface FlagLine {
  readonly component: Component | undefined;
  readonly flags: readonly Flag[];
}

/** Boolean flags: they never take the next word as their value (pflag needs `--flag=false`). */
const BOOLEAN_FLAGS = new Set(['leader-elect', 'allocate-node-cidrs', 'use-service-account-credentials', 'profiling', 'contention-profiling', 'allow-privileged', 'anonymous-auth', 'enable-aggregator-routing']);

/** The component a program path names (`/usr/local/bin/kube-controller-manager` → kube-controller-manager). */
export function componentOfProgram(word: string): Component | undefined {
  const base = word.split('/').pop() ?? word;
  return COMPONENTS.find((c) => base === c);
}

/** Splits a text into words: `#` comments, `\` line continuations, single and double quotes, YAML list dashes. */
export function words(text: string): string[] {
  return wordsWithLines(text).words;
}

/** The words of one line (quotes removed): the words of a shell or systemd command line. */
export function lineWords(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** {@link words}, each with the line it is written on (1-based). */
export function wordsWithLines(text: string): { words: string[]; lines: number[] } {
  const out: string[] = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    // A `\` at the end of a line continues the command on the next: the words keep their own lines.
    const line = raw.replace(/\\$/, '').replace(/(^|\s)#.*$/, '').replace(/^\s*-\s+/, '');
    for (const w of lineWords(line)) {
      out.push(w);
      lines.push(i + 1);
    }
  });
  return { words: out, lines };
}

/**
 * The flags in a list of words. A word before the first flag may name the program; a flag
 * without `=` takes the next word as its value unless that word is a flag or the flag is boolean.
 * Returns the first word that is neither (a stray word) as `stray`.
 */
export function parseFlags(list: readonly string[], lines?: readonly number[]): FlagLine & { readonly stray?: string } {
  const flags: Flag[] = [];
  let component: Component | undefined;
  let stray: string | undefined;
  for (let i = 0; i < list.length; i++) {
    const w = list[i];
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      const at = lines?.[i] === undefined ? {} : { line: lines[i] };
      if (eq > 0) {
        flags.push({ name: w.slice(2, eq), value: w.slice(eq + 1), ...at });
        continue;
      }
      const name = w.slice(2);
      const next = list[i + 1];
      if (!BOOLEAN_FLAGS.has(name) && next !== undefined && !next.startsWith('-')) {
        flags.push({ name, value: next, ...at });
        i++;
      } else flags.push({ name, value: undefined, ...at });
      continue;
    }
    const program = flags.length === 0 ? componentOfProgram(w) : undefined;
    if (program !== undefined && component === undefined) component = program;
    else stray ??= w;
  }
  return { component, flags, ...(stray === undefined ? {} : { stray }) };
}

/**
 * Whether a text looks like a flags file: its first word is a flag (`--name`, not YAML's `---`
 * document start) or a component's program.
 */
export function looksLikeFlags(text: string): boolean {
  const first = words(text)[0];
  return first !== undefined && (/^--[A-Za-z0-9]/.test(first) || componentOfProgram(first) !== undefined);
}
