/** The sign-in code form's client validation, imported after the first paint (useDeferredValidation). */
import { parseWithZod } from "@conform-to/zod";
import { secondFactorSchema } from "~/schemas/security";

export const validateCode = (formData: FormData) =>
  parseWithZod(formData, { schema: secondFactorSchema });
