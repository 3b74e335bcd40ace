/**
 * Colours for terminal reports. Reports take a {@link Palette} and never decide by themselves
 * whether colour is on: the command line decides once (stdout a terminal, `NO_COLOR` unset, no
 * `--no-color`), because picocolors alone turns colour on whenever `CI` is set, even when piped.
 */
import pc from 'picocolors';

export type Palette = ReturnType<typeof pc.createColors>;

/** A palette that colours (`true`) or returns every string unchanged (`false`). */
export function palette(enabled: boolean): Palette {
  return pc.createColors(enabled);
}

/** The palette with colour off: what files, Markdown and tests get. */
export const plain: Palette = palette(false);
