/** The sign-up form's client validation, imported after the first paint (useDeferredValidation). */
import { parseWithZod } from "@conform-to/zod";
import { registerSchema } from "~/schemas/register";
import { sendCodeSchema } from "~/schemas/send-code";

export const validateRegister = (formData: FormData) =>
  parseWithZod(formData, {
    schema: formData.get("intent") === "send_code" ? sendCodeSchema : registerSchema,
  });
