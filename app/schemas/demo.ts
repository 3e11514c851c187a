/** The "demo account" form (POST /login, intent=demo): no fields besides the intent. */
import { z } from "zod";

export const demoSchema = z.object({
  intent: z.literal("demo"),
});
