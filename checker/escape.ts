/**
 * Text from the user's files (keys, file names, object labels and spec values, names in error
 * messages) printed where a terminal or a CI log reads it. Two dangers, one module:
 * - a newline in a value starts a line of its own: one that starts with `::` is a GitHub Actions
 *   workflow command (`::error::`, `::add-mask::`, `::stop-commands::`), which the runner reads
 *   from any line of a step's output after leading white space; `##[` is the older form, read
 *   anywhere in a line (actions/runner, ActionCommand.cs);
 * - a control character (ESC, the C1 range) is a terminal command: an OSC 52 clipboard write, a
 *   screen clear, a cursor move that hides what came before.
 *
 * {@link inputText} renders one value as one token on one line: bare when it reads safely, else
 * a JSON string literal (so `JSON.parse` gives the value back). Every print site of a value that
 * came from input uses it. {@link terminalText} and {@link jsonText} are the last step before a
 * stream: they escape any control character left (kubecheck's own SGR colours kept when colour
 * is on) and any line that would still start a workflow command, whatever built the text.
 */

/**
 * Characters no value prints raw: C0 controls (newline and tab included), DEL, C1 controls, the
 * Unicode line and paragraph separators, and the bidirectional overrides and isolates (which
 * reorder what a reader sees).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** {@link UNSAFE} without the C0 controls: what `JSON.stringify` leaves raw in a string. */
const UNSAFE_ABOVE_C0 = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A character as a JSON escape: `\n`, `\t`, `\u001b`. */
function escapeChar(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
}

/** Whether a value would start a workflow command where it begins a line, or holds the older `##[` form. */
function commandLike(s: string): boolean {
  return s.trimStart().startsWith('::') || s.includes('##[');
}

/**
 * A value from input as one token on one line, for any text kubecheck prints: unchanged when it
 * holds no control character, no line separator, no leading or trailing white space, is not
 * empty and would not start a workflow command; otherwise a JSON string literal
 * (`"foo\n::error::x"`, `"\u001b]52;c;..."`), which reads back with `JSON.parse`.
 *
 * @example inputText('web') === 'web'; inputText('a\nb') === '"a\\nb"'
 */
export function inputText(s: string): string {
  if (s !== '' && !UNSAFE.test(s) && s.trim() === s && !commandLike(s)) return s;
  // JSON.stringify escapes C0 controls, `"` and `\`; the rest is escaped here (U+2028 and the C1
  // range are valid raw in JSON but not on a terminal), and `##[` loses its bracket to `\u005b`.
  return JSON.stringify(s).replace(UNSAFE_ALL, escapeChar).replace(/##\[/g, '##\\u005b');
}

/** SGR sequences (colours, bold, dim), the only escape sequences kubecheck itself prints. */
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/y;

/**
 * Text for a terminal or a log, the last step before it is written: every control character but
 * the newline (and, with `colour`, kubecheck's own SGR colour sequences) is escaped as `\u001b`,
 * `\t`..., and a line that would start a workflow command has its first `:` written `\u003a`.
 * Input printed through {@link inputText} never needs this; it holds whatever a value still
 * carried (an extension's words, a message that quoted input whole).
 */
export function terminalText(text: string, colour = false): string {
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || !UNSAFE.test(c)) continue;
    if (colour && c === '\u001b') {
      SGR.lastIndex = i;
      const m = SGR.exec(text);
      if (m !== null) {
        i += m[0].length - 1;
        continue;
      }
    }
    out += text.slice(plainFrom, i) + escapeChar(c);
    plainFrom = i + 1;
  }
  out += text.slice(plainFrom);
  return out.replace(/^(\s*):(?=:)/gm, '$1\\u003a').replace(/##\[/g, '##\\u005b');
}

/**
 * A JSON document for a terminal or a log: `JSON.stringify` leaves U+2028, U+2029, DEL, the C1
 * range and the bidirectional controls raw in strings; here they are `\uXXXX` escapes, which
 * parse back to the same value. Newlines and C0 controls are escaped by `JSON.stringify` itself,
 * so no line of the document starts with anything but white space and a quote, a bracket or a
 * literal.
 */
export function jsonText(value: unknown, indent: number | undefined = 2): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(UNSAFE_ABOVE_C0, escapeChar).replace(/##\[/g, '##\\u005b');
}

/**
 * An XML document for a terminal or a log: raw C1 controls and separators become character
 * references, and a line of text content (a failure's timeline, `system-out`) that would start a
 * workflow command has its first `:` written `&#58;`; each parses back to the same text.
 */
export function xmlLogText(xml: string): string {
  return xml
    .replace(UNSAFE_ABOVE_C0, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`)
    .replace(/^(\s*):(?=:)/gm, '$1&#58;')
    .replace(/##\[/g, '##&#91;');
}

/**
 * A message for one line that embeds input (an error naming a key, a value): every control
 * character escaped as in a JSON string (`\n`, `\u001b`), nothing quoted; see {@link inputText}
 * for a value on its own.
 */
export function escapeControls(s: string): string {
  return s.replace(UNSAFE_ALL, escapeChar);
}
