/**
 * A translated line whose figures sit in `<bdi>` isolates: "<bdi>{{amount}} USD</bdi> →
 * <bdi>{{net}} {{code}}</bdi>". In right-to-left text a figure with its Latin unit then stays one
 * left-to-right unit, and the arrows and signs between the isolates follow the page's direction.
 *
 * Values are text, never markup: the line is translated with a private-use marker in place of each
 * value, split at its <bdi> tags, and only then are the markers replaced by the values, as text
 * nodes. A value such as "<b>" or "</bdi>" shows as typed.
 */
import { Fragment, type ReactNode } from "react";
import type { TFunction } from "~/translate";

const ISOLATE = /<bdi>([\s\S]*?)<\/bdi>/g;
/** U+E000 n U+E001: the n-th value, in the translated line before it is split. */
const MARKER = /\uE000(\d+)\uE001/g;

export function Isolated({
  t,
  k,
  values,
}: {
  t: TFunction;
  k: string;
  values: Record<string, string | number>;
}) {
  const names = Object.keys(values);
  const marked = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]));
  const line = t(k, marked);
  const text = (s: string) => s.replace(MARKER, (_, i: string) => String(values[names[+i]]));
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of line.matchAll(ISOLATE)) {
    if (m.index > at) parts.push(text(line.slice(at, m.index)));
    parts.push(<bdi key={parts.length}>{text(m[1])}</bdi>);
    at = m.index + m[0].length;
  }
  if (at < line.length) parts.push(text(line.slice(at)));
  return <Fragment>{parts}</Fragment>;
}
