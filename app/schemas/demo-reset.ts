/** The demo account reset of the user centre (POST /user, demo accounts only). */
import { z } from "zod";
import { idempotencyKey } from "./fields";

export const demoResetSchema = z.object({
  intent: z.literal("reset_demo"),
  idempotency_key: idempotencyKey(),
});
