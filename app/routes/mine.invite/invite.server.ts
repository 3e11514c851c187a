/**
 * Invite's server side: the invite code, the invite link (/register?invite_code=CODE on this web's
 * own origin), its QR code drawn here, and how many accounts registered with the code.
 */
import { qrSvg } from "~/utils/qr.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { inviteInfo } from "~/upstream/profile.server";
import { accountState } from "~/utils/account.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, notice } = await accountState(request);
  if (notice) return { notice, code: "", link: "", qr: "", count: 0 };
  const info = await inviteInfo(caller);
  if (!info.ok) return { notice: info.msg, code: "", link: "", qr: "", count: 0 };
  const link = new URL("/register", new URL(request.url).origin);
  link.searchParams.set("invite_code", info.data.invite_code);
  return {
    notice: null,
    code: info.data.invite_code,
    link: link.href,
    qr: await qrSvg(link.href),
    count: Number(info.data.invited_count) || 0,
  };
}
