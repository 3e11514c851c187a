/** Language form (POST /language): one button per language. */
import { z } from "zod";
import { LANGUAGES } from "../i18n";

export const languageSchema = z.object({
  lng: z.preprocess(
    (v) => (v === "tw" ? "hk" : v),
    z.enum(LANGUAGES, { message: "common:language_unknown" }),
  ),
  redirect_to: z.string().max(512).optional(),
});
