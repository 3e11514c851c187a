/**
 * Negative balance protection (/protection), public: in plain words what the broker's protection
 * (trading-rules "Negative balance protection") means for a trader, linked from the order form's
 * risk disclosure. A page of text, the same without JavaScript.
 */
import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { callerFor } from "~/upstream/client.server";
import { getT } from "~/i18n.server";
import riskStyles from "~/styles/risk.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: riskStyles }];

export const handle = { i18n: ["common", "risk"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["risk"]);
  return data({ title: t("risk:protection_title") });
}

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

/** The notice's paragraphs, in order (risk.json protection_p1 …). */
const PARAGRAPHS = ["protection_p1", "protection_p2", "protection_p3", "protection_p4"] as const;

export default function Protection() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("risk");
  return (
    <div className="protection">
      <PageHeader title={d.title} back="/trade" />
      <article className="card" data-testid="protection">
        {PARAGRAPHS.map((k) => (
          <p key={k}>{t(k)}</p>
        ))}
      </article>
    </div>
  );
}
