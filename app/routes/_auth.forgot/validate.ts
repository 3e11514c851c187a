/** The password reset form's client validation, imported after the first paint (useDeferredValidation). */
import { parseWithZod } from "@conform-to/zod";
import { forgotSchema } from "~/schemas/forgot";
import { sendCodeSchema } from "~/schemas/send-code";

export const validateForgot = (formData: FormData) =>
  parseWithZod(formData, {
    schema: formData.get("intent") === "send_code" ? sendCodeSchema : forgotSchema,
  });
