/**
 * A translated line whose figures sit in `<bdi>` isolates: "<bdi>{{amount}} USD</bdi> →
 * <bdi>{{net}} {{code}}</bdi>". In right-to-left text a figure with its Latin unit then stays one
 * left-to-right unit, and the arrows and signs between the isolates follow the page's direction.
 *
 * Values are text, never markup: they are escaped before the line is parsed for its tags and
 * unescaped into text nodes, so a value such as "<b>" shows as typed.
 */
import type { TFunction } from "i18next";
import { Trans } from "react-i18next";

const COMPONENTS = { bdi: <bdi /> };
const ESCAPED = { interpolation: { escapeValue: true } };

export function Isolated({
  t,
  k,
  values,
}: {
  t: TFunction;
  k: string;
  values: Record<string, string | number>;
}) {
  return (
    <Trans
      t={t}
      i18nKey={k}
      values={values}
      components={COMPONENTS}
      tOptions={ESCAPED}
      shouldUnescape
    />
  );
}
