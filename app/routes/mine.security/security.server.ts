/**
 * /mine/security's server side: two-factor sign-in (turn on with a first code, the QR code and the
 * key as text, backup codes shown once, new backup codes, turn off with a code and the password)
 * and the account's signed-in sessions (end one, end all but this one).
 */
import { qrSvg } from "~/utils/qr.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  renewBackupCodes,
  sessionEnd,
  sessionEndOthers,
  sessionList,
  twoFactorDisable,
  twoFactorEnable,
  twoFactorSetup,
  twoFactorStatus,
} from "~/upstream/security.server";
import { accountState } from "~/utils/account.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import {
  backupCodesSchema,
  sessionEndOthersSchema,
  sessionEndSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  twoFactorSetupSchema,
} from "~/schemas/security";

const HERE = "/mine/security";

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, notice } = await accountState(request);
  if (notice) return { notice, twoFactor: null, qr: "", sessions: [], lang: caller.lang };
  const [status, sessions] = await Promise.all([twoFactorStatus(caller), sessionList(caller)]);
  const setup = status.ok ? status.data.setup : null;
  return {
    notice: status.ok ? null : status.msg,
    twoFactor: status.ok ? status.data : null,
    qr: setup ? await qrSvg(setup.uri) : "",
    sessions: sessions.ok ? sessions.data : [],
    lang: caller.lang,
  };
}

const FORMS = {
  setup: twoFactorSetupSchema,
  enable: twoFactorEnableSchema,
  disable: twoFactorDisableSchema,
  renew: backupCodesSchema,
  end: sessionEndSchema,
  end_others: sessionEndOthersSchema,
};

export async function action({ request }: ActionFunctionArgs) {
  const { caller } = await accountState(request);
  const form = await readForm(request, FORMS, { hideFields: ["password"] });
  if (!form.ok) return refused(form, { backupCodes: null as string[] | null });
  const v = form.value as { code?: string; password?: string; id?: string };
  const refusal = (r: { code: number; msg: string }) =>
    data(
      {
        refusedIntent: form.intent,
        result: form.reply({ formErrors: [r.msg] }),
        backupCodes: null as string[] | null,
      },
      { status: refusalStatus(r) },
    );

  switch (form.intent) {
    case "enable":
    case "renew": {
      const r =
        form.intent === "enable"
          ? await twoFactorEnable(caller, v.code!)
          : await renewBackupCodes(caller, v.code!);
      if (!r.ok) return refusal(r);
      // Shown once, in this answer only: the upstream keeps their hashes.
      return {
        refusedIntent: null,
        result: form.reply(),
        backupCodes: r.data.backup_codes,
        done: r.msg,
      };
    }
    case "setup": {
      const r = await twoFactorSetup(caller);
      if (!r.ok) return refusal(r);
      throw await redirectWithToast(caller.session, HERE, { type: "info", text: r.msg });
    }
    case "disable": {
      const r = await twoFactorDisable(caller, { code: v.code!, password: v.password! });
      if (!r.ok) return refusal(r);
      throw await redirectWithToast(caller.session, HERE, { type: "success", text: r.msg });
    }
    case "end": {
      const r = await sessionEnd(caller, v.id!);
      if (!r.ok) return refusal(r);
      throw await redirectWithToast(caller.session, HERE, { type: "success", text: r.msg });
    }
    default: {
      const r = await sessionEndOthers(caller);
      if (!r.ok) return refusal(r);
      throw await redirectWithToast(caller.session, HERE, { type: "success", text: r.msg });
    }
  }
}
