/**
 * The command lines of Kubernetes' components as hosts start them: systemd units
 * (`kube-controller-manager.service`, `kubelet.service`) and their drop-ins
 * (`kubelet.service.d/10-kubeadm.conf`), and the environment files units read
 * (`/var/lib/kubelet/kubeadm-flags.env`, `/etc/default/kubelet`, `/etc/sysconfig/kubelet`). Pure:
 * texts in, flags with the line each is written on out.
 *
 * A unit is read as systemd reads it (systemd.syntax(7), systemd.service(5), systemd.exec(5)):
 * lines starting with `#` or `;` are comments, a `\` at the end of a line joins the next one, only
 * the `[Service]` section's `ExecStart=` and `Environment=` matter. An empty `ExecStart=` clears the
 * ones before it (a drop-in replacing its unit's command); the last command is the one read. In
 * the command, `$NAME` alone is the variable's value split at white space, `${NAME}` its value as
 * one word; variables set by `Environment=` in the same file are expanded, those of an
 * `EnvironmentFile=` are not (the file is named so it can be given too).
 */
import { type Component, componentOfProgram, type Flag, lineWords, parseFlags } from './flags.js';

/** The flags one unit or environment file passes to one program. */
export interface CommandFlags {
  /** The component the program or the variable names, if it does. */
  readonly component: Component | undefined;
  /** k3s or rke2 (`k3s server --kube-controller-manager-arg=...`): flags in k3s' own form. */
  readonly distribution?: 'k3s' | 'rke2';
  readonly flags: readonly Flag[];
  /** What was not read, for people: variables from files not given. */
  readonly notes: readonly string[];
  /** A word of the command that is no flag, if any. */
  readonly stray?: string;
  /** The program run when it is no component kubecheck reads (`/usr/bin/containerd`). */
  readonly otherProgram?: string;
}

/** A section header of a systemd unit: `[Unit]`, `[Service]`, `[Install]`. */
const SECTION = /^[ \t]*\[(Unit|Service|Install|Socket|Timer|Path|Mount)\][ \t]*$/m;

/** Whether a text is a systemd unit or drop-in (it has a `[Unit]`, `[Service]` ... section). */
export function isSystemdUnit(text: string): boolean {
  return SECTION.test(text) && /^[ \t]*[A-Za-z]+[ \t]*=/m.test(text);
}

/** One assignment of an environment file: `NAME=value`, `export NAME="value"`. */
const ASSIGNMENT = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/**
 * Whether a text is an environment file of flags: every line that is not blank or a comment is
 * `NAME=value`, and some value holds a `--flag`.
 */
export function isEnvironmentFile(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !/^[ \t]*#/.test(l));
  return lines.length > 0 && lines.every((l) => ASSIGNMENT.test(l)) && lines.some((l) => /(^|[\s"'=])--[A-Za-z0-9]/.test(l.replace(ASSIGNMENT, '$2')));
}

/** The component a variable's name stands for (`KUBELET_EXTRA_ARGS`, `KUBE_CONTROLLER_MANAGER_ARGS`). */
export function componentOfVariable(name: string): Component | undefined {
  const n = name.toUpperCase();
  if (n.includes('KUBELET')) return 'kubelet';
  if (n.includes('CONTROLLER_MANAGER')) return 'kube-controller-manager';
  if (n.includes('SCHEDULER')) return 'kube-scheduler';
  if (/API_?SERVER/.test(n)) return 'kube-apiserver';
  return undefined;
}

/** A word and the line it is written on. */
interface Word {
  readonly text: string;
  readonly line: number;
}

/** The value of an environment file's assignment, its quotes removed (`"--a=1 --b=2"` → `--a=1 --b=2`). */
function unquote(value: string): string {
  const v = value.trim();
  return /^"[^"]*"$|^'[^']*'$/.test(v) ? v.slice(1, -1) : v.replace(/[ \t]+#.*$/, '');
}

/** An environment file's flags, one entry per variable that holds any, in order. */
export function environmentFileFlags(text: string): (CommandFlags & { readonly variable: string })[] {
  const out: (CommandFlags & { readonly variable: string })[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    const m = ASSIGNMENT.exec(l);
    if (m === null || /^[ \t]*#/.test(l)) return;
    const list = lineWords(unquote(m[2]));
    if (!list.some((w) => w.startsWith('--'))) return;
    const parsed = parseFlags(list, list.map(() => i + 1));
    out.push({ variable: m[1], component: componentOfVariable(m[1]), flags: parsed.flags, notes: [], ...(parsed.stray === undefined ? {} : { stray: parsed.stray }) });
  });
  return out;
}

/** The logical lines of a unit (continuations joined), each as its physical lines with their numbers; comments left out. */
function logicalLines(text: string): { readonly parts: readonly { readonly text: string; readonly line: number }[] }[] {
  const out: { parts: { text: string; line: number }[] }[] = [];
  let open: { parts: { text: string; line: number }[] } | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (/^[ \t]*[#;]/.test(raw)) return;
    const continued = /\\[ \t]*$/.test(raw);
    const part = { text: continued ? raw.replace(/\\[ \t]*$/, ' ') : raw, line: i + 1 };
    if (open === undefined) {
      open = { parts: [part] };
      out.push(open);
    } else open.parts.push(part);
    if (!continued) open = undefined;
  });
  return out;
}

/**
 * The words of a value that starts after `=` on its first physical line, quotes removed; the
 * lines are joined first, as systemd joins them, so a quoted value may go on over several lines.
 * Each word has the line it starts on.
 */
function valueWords(parts: readonly { readonly text: string; readonly line: number }[], start: number): Word[] {
  const starts: number[] = [];
  let joined = '';
  parts.forEach((p, i) => {
    starts.push(joined.length);
    joined += i === 0 ? p.text.slice(start) : p.text;
  });
  const lineAt = (offset: number): number => {
    let i = 0;
    while (i + 1 < starts.length && starts[i + 1] <= offset) i++;
    return parts[i].line;
  };
  const out: Word[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(joined); m !== null; m = re.exec(joined)) out.push({ text: m[1] ?? m[2] ?? m[3], line: lineAt(m.index) });
  return out;
}

/** `$NAME` and `${NAME}` in a word, expanded (an unset variable is empty, as systemd makes it). */
function expand(word: Word, env: ReadonlyMap<string, Word>, missing: Set<string>): Word[] {
  const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(word.text);
  if (whole !== null) {
    const v = env.get(whole[1]);
    if (v === undefined) {
      missing.add(whole[1]);
      return [];
    }
    return lineWords(v.text).map((text) => ({ text, line: v.line }));
  }
  let line = word.line;
  const text = word.text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    const v = env.get(name);
    if (v === undefined) {
      missing.add(name);
      return '';
    }
    line = v.line;
    return v.text;
  });
  return text === '' ? [] : [{ text, line }];
}

/**
 * What a unit or drop-in passes to the program its `ExecStart=` runs; without an `ExecStart=` (a
 * drop-in that sets `Environment="KUBELET_EXTRA_ARGS=..."` for its unit's command), the flags its
 * variables hold, one entry per variable.
 */
export function unitFlags(text: string): CommandFlags[] {
  let section = '';
  const env = new Map<string, Word>();
  const envOrder: string[] = [];
  const envFiles: string[] = [];
  let exec: Word[] | undefined;
  for (const { parts } of logicalLines(text)) {
    const first = parts[0].text;
    const header = /^[ \t]*\[([^\]]+)\][ \t]*$/.exec(first);
    if (header !== null) {
      section = header[1];
      continue;
    }
    const m = /^[ \t]*([A-Za-z]+)[ \t]*=[ \t]*/.exec(first);
    if (m === null || section !== 'Service') continue;
    const key = m[1];
    const value = valueWords(parts, m[0].length);
    if (key === 'Environment') {
      for (const w of value) {
        const eq = w.text.indexOf('=');
        if (eq <= 0) continue;
        const name = w.text.slice(0, eq);
        env.set(name, { text: w.text.slice(eq + 1), line: w.line });
        if (!envOrder.includes(name)) envOrder.push(name);
      }
    } else if (key === 'EnvironmentFile') {
      envFiles.push(...value.map((w) => w.text.replace(/^-/, '')));
    } else if (key === 'ExecStart') {
      // An empty ExecStart= resets the list; the last command is the one that runs the component.
      exec = value.length === 0 ? undefined : value;
    }
  }
  const fromFiles = envFiles.length === 0 ? '' : `, set in ${envFiles.map((f) => `EnvironmentFile=${f}`).join(' or ')}`;
  if (exec === undefined) {
    return envOrder.flatMap((name) => {
      const v = env.get(name)!;
      const list = lineWords(v.text);
      if (!list.some((w) => w.startsWith('--'))) return [];
      const parsed = parseFlags(list, list.map(() => v.line));
      return [{ component: componentOfVariable(name), flags: parsed.flags, notes: [], ...(parsed.stray === undefined ? {} : { stray: parsed.stray }) }];
    });
  }
  const missing = new Set<string>();
  // systemd's prefixes on the program: - @ : + ! !!
  const program = exec[0].text.replace(/^[-@:+!]+/, '');
  const args = exec.slice(1).flatMap((w) => expand(w, env, missing));
  const notes = [...missing].map((name) => `ExecStart uses $${name}${fromFiles}, not among the files given: give that file too to read its flags`);
  const base = program.split('/').pop() ?? program;
  if (base === 'k3s' || base === 'rke2') {
    // `k3s server --kube-controller-manager-arg=...`: the subcommand, then k3s' flags.
    const rest = args[0] !== undefined && !args[0].text.startsWith('-') ? args.slice(1) : args;
    const parsed = parseFlags(rest.map((w) => w.text), rest.map((w) => w.line));
    return [{ component: undefined, distribution: base, flags: parsed.flags, notes, ...(parsed.stray === undefined ? {} : { stray: parsed.stray }) }];
  }
  const component = componentOfProgram(program);
  if (component === undefined) return [{ component, flags: [], notes, otherProgram: program }];
  const parsed = parseFlags(args.map((w) => w.text), args.map((w) => w.line));
  return [{ component, flags: parsed.flags, notes, ...(parsed.stray === undefined ? {} : { stray: parsed.stray }) }];
}
