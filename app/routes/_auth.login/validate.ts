/** The sign-in form's client validation, imported after the first paint (useDeferredValidation). */
import { parseWithZod } from "@conform-to/zod";
import { loginSchema } from "~/schemas/login";

export const validateLogin = (formData: FormData) =>
  parseWithZod(formData, { schema: loginSchema });
