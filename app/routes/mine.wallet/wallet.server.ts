/** The wallet's server side: every destination and the forms that add or delete one. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadWallet, walletAction } from "~/utils/wallet.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadWallet(request);
}

export function action({ request }: ActionFunctionArgs) {
  return walletAction(request, "/mine/wallet");
}
