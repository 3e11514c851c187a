/** The balance hide/show toggle of the user card (POST /user). */
import { z } from "zod";

export const balanceVisibilitySchema = z.object({
  intent: z.literal("toggle_balance"),
  hide: z.enum(["0", "1"]),
});
