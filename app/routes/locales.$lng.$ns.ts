/** Translations for the browser: GET /locales/{lng}/{ns}.json (short cache). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadResources } from "~/i18n.server";
import { normaliseLang } from "~/i18n";

export async function loader({ params }: LoaderFunctionArgs) {
  const lng = normaliseLang(params.lng);
  const ns = (params.ns ?? "").replace(/\.json$/, "");
  const resources = loadResources();
  const bundle = lng && /^[a-z0-9_-]{1,40}$/i.test(ns) ? resources[lng]?.[ns] : undefined;
  if (!bundle) {
    return new Response(JSON.stringify({}), {
      status: 404,
      headers: { "Content-Type": "application/json" },
    });
  }
  return new Response(JSON.stringify(bundle), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
